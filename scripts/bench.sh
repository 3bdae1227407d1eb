#!/usr/bin/env bash
# The speed benchmark (issue #5): three engines (the browser's with and without
# threads) on one random checkpoint with
# distilgpt2's exact shapes, same workload, same machine, in interleaved rounds; writes
# BENCHMARKS.md. Not part of CI (minutes, and timing needs a quiet machine).
#   scripts/bench.sh [ROUNDS] [RUNS]   (default 3 rounds of 3 runs; figures are medians)
# HF transformers runs when `python3` (or $BENCH_PYTHON) can import torch.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${1:-3}"
RUNS="${2:-3}"
# What it needs, as the test command installs it (a fresh clone had no
# playwright-core and stopped); quick when everything is there.
scripts/setup.sh
export PATH="$PWD/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
OUT=bench/out
MODEL=$OUT/distilgpt2-random
# The same workload on SmolLM2-135M's shapes (a Llama: 30 narrow layers,
# grouped heads, BF16 kept 16-bit in the worker), issue #19.
LLAMA=$OUT/smollm2-random
mkdir -p "$OUT"
cargo build --release -q -p ntl-cli
BIN="${CARGO_TARGET_DIR:-target}/release/ntl-bench"
[ -f "$MODEL/model.safetensors" ] || "$BIN" make-checkpoint "$MODEL" tests/fixtures/models/tokenizer.json
[ -f "$LLAMA/model.safetensors" ] || "$BIN" make-checkpoint "$LLAMA" tests/fixtures/models/tokenizer.json --smollm2
[ -f dist/worker_bg.wasm ] && [ -f dist/worker_mt_bg.wasm ] || scripts/build.sh
PY="${BENCH_PYTHON:-python3}"
HAVE_TORCH=0
"$PY" -c "import torch, transformers" 2>/dev/null && HAVE_TORCH=1

# Rounds: every engine once per round, so each ratio compares engines measured
# within the same few minutes (this machine's speed drifts between minutes);
# the report takes the median of each figure and of each round's ratios.
rm -rf "$OUT"/round-*
for round in $(seq 1 "$ROUNDS"); do
  dir="$OUT/round-$round"
  mkdir -p "$dir"
  echo "== round $round of $ROUNDS: native engine"
  "$BIN" run "$MODEL" --runs "$RUNS" | tee "$dir/native.json"
  echo "== round $round: the page's engine in headless Chromium (cross-origin isolated: the threaded worker)"
  node bench/browser.mjs "$MODEL" "$RUNS" | tee "$dir/browser.json"
  echo "== round $round: the same, not isolated (the single-threaded worker static hosts and embeds get)"
  node bench/browser.mjs "$MODEL" "$RUNS" --single-thread | tee "$dir/browser-single.json"
  echo "== round $round: the same two workers in Firefox (firefox-esr)"
  node bench/browser.mjs "$MODEL" "$RUNS" --firefox | tee "$dir/firefox.json"
  node bench/browser.mjs "$MODEL" "$RUNS" --firefox --single-thread | tee "$dir/firefox-single.json"
  if [ "$HAVE_TORCH" = 1 ]; then
    echo "== round $round: HF transformers generate()"
    "$PY" bench/hf_generate.py "$MODEL" "$RUNS" | tee "$dir/hf.json"
  fi
  echo "== round $round: SmolLM2-135M's shapes, both workers in Chromium"
  node bench/browser.mjs "$LLAMA" "$RUNS" | tee "$dir/smollm2-browser.json"
  node bench/browser.mjs "$LLAMA" "$RUNS" --single-thread | tee "$dir/smollm2-browser-single.json"
  if [ "$HAVE_TORCH" = 1 ]; then
    "$PY" bench/hf_generate.py "$LLAMA" "$RUNS" | tee "$dir/smollm2-hf.json"
  fi
done
# Quantized files (issue #36): the page's worker and wllama on the same GGUFs,
# when bench/make_gguf.py has made them (it needs llama.cpp's converter), and
# the distilgpt2-shaped checkpoint with 8 bits at load beside transformers.js.
QUANT=$OUT/quant
rm -rf "$QUANT"; mkdir -p "$QUANT"
for f in smollm2-f16 smollm2-q8_0 smollm2-q4_k_m distilgpt2-f16 distilgpt2-q8_0 distilgpt2-q4_0 qwen25-q4_k_m; do
  file=$OUT/$f.gguf
  if [ ! -f "$file" ]; then echo "== $file: not there (bench/make_gguf.py), skipped"; continue; fi
  echo "== $f: the page's workers and wllama, Chromium"
  node bench/browser.mjs "$file" "$RUNS" | tee "$QUANT/$f.json"
  # wllama now and then hangs or fails on a file: the report says "—" then.
  timeout 900 node bench/wllama.mjs "$file" "$RUNS" | tee "$QUANT/wllama-$f.json" || echo "== wllama failed on $file"
  node bench/browser.mjs "$file" "$RUNS" --single-thread | tee "$QUANT/$f-single.json"
  timeout 900 node bench/wllama.mjs "$file" "$RUNS" --single-thread | tee "$QUANT/wllama-$f-single.json" || echo "== wllama failed on $file"
done
echo "== 8 bits at load beside F32 minutes apart, both workers"
node bench/browser.mjs "$MODEL" "$RUNS" | tee "$QUANT/f32.json"
node bench/browser.mjs "$MODEL" "$RUNS" --q8 | tee "$QUANT/q8-at-load.json"
node bench/browser.mjs "$MODEL" "$RUNS" --single-thread | tee "$QUANT/f32-single.json"
node bench/browser.mjs "$MODEL" "$RUNS" --q8 --single-thread | tee "$QUANT/q8-at-load-single.json"
# transformers.js on the same checkpoint exported to ONNX (bench/make_onnx.py, optimum-onnx).
if [ -f bench/out/onnx/distilgpt2-random/onnx/model.onnx ]; then
  echo "== transformers.js fp32 and q8, both thread counts"
  node bench/transformers_js.mjs "$RUNS" | tee "$QUANT/tjs-fp32.json"
  node bench/transformers_js.mjs "$RUNS" --q8 | tee "$QUANT/tjs-q8.json"
  node bench/transformers_js.mjs "$RUNS" --single-thread | tee "$QUANT/tjs-fp32-single.json"
  node bench/transformers_js.mjs "$RUNS" --q8 --single-thread | tee "$QUANT/tjs-q8-single.json"
else
  echo "== transformers.js: no ONNX export (bench/make_onnx.py), skipped"
fi
echo "== the machine's limits as wasm sees them (SIMD arithmetic, memory read), both browsers"
node bench/peak.mjs | tee "$OUT/peak.json"
node bench/peak.mjs --firefox | tee "$OUT/peak-firefox.json"
echo "== the page's own cost per streamed step (bundled model, single-threaded page)"
node bench/page_step.mjs dist 3 64 200 | tee "$OUT/page-step.json"
echo "== the what-if sandbox: one knob change over the whole vocabulary, both workers"
node bench/sandbox.mjs "$MODEL" 40 --single-thread | tee "$OUT/sandbox-single.json"
node bench/sandbox.mjs "$MODEL" 40 | tee "$OUT/sandbox.json"
echo "== many samples as a tree: 1,000 samples × 8 tokens, both workers and decode"
node bench/sample_tree.mjs "$MODEL" 3 | tee "$OUT/sample-tree.json"
[ "$HAVE_TORCH" = 1 ] || echo "== HF transformers: skipped ($PY cannot import torch and transformers; set BENCH_PYTHON)"
node bench/report.mjs "$OUT" > BENCHMARKS.md
echo "wrote BENCHMARKS.md"
