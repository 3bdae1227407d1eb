#!/usr/bin/env bash
# The speed benchmark (issue #5): three engines on one random checkpoint with
# distilgpt2's exact shapes, same workload, same machine, one run; writes
# BENCHMARKS.md. Not part of CI (minutes, and timing needs a quiet machine).
#   scripts/bench.sh [RUNS]        (default 5; figures are medians)
# HF transformers runs when `python3` (or $BENCH_PYTHON) can import torch.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
export PATH="$HOME/.cargo/bin:$PATH"
OUT=bench/out
MODEL=$OUT/distilgpt2-random
mkdir -p "$OUT"
cargo build --release -q -p ntl-cli
BIN="${CARGO_TARGET_DIR:-target}/release/ntl-bench"
[ -f "$MODEL/model.safetensors" ] || "$BIN" make-checkpoint "$MODEL" tests/fixtures/models/tokenizer.json
[ -f dist/worker_bg.wasm ] || scripts/build.sh

echo "== native engine"
"$BIN" run "$MODEL" --runs "$RUNS" | tee "$OUT/native.json"
echo "== the page's engine in headless Chromium"
node bench/browser.mjs "$MODEL" "$RUNS" | tee "$OUT/browser.json"
PY="${BENCH_PYTHON:-python3}"
rm -f "$OUT/hf.json"
if "$PY" -c "import torch, transformers" 2>/dev/null; then
  echo "== HF transformers generate()"
  "$PY" bench/hf_generate.py "$MODEL" "$RUNS" | tee "$OUT/hf.json"
else
  echo "== HF transformers: skipped ($PY cannot import torch and transformers; set BENCH_PYTHON)"
fi
node bench/report.mjs "$OUT" > BENCHMARKS.md
echo "wrote BENCHMARKS.md"
