#!/usr/bin/env bash
# Fuzzes the parsers that read untrusted input: the checkpoint loaders (safetensors and GGUF), the
# generation-config parser, the share-link decoder, the lesson reader and the
# page's reading of worker messages, of a site's models/index.json and of the hub's
# listing of a GGUF repo. Not part of CI (it
# needs nightly and minutes per target): run it by hand, then record the
# figures it prints in the README's testing section.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
BUDGET="${1:-300}"
export PATH="$HOME/.cargo/bin:$PATH"
rustup toolchain list | grep -q nightly || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
unset CARGO_TARGET_DIR # cargo-fuzz keeps its sanitizer builds in fuzz/target

# Seeds: one valid input per target, so mutations start from the real format.
python3 scripts/fuzz_seeds.py fuzz/corpus

for target in ${FUZZ_TARGETS:-share_link generation_config checkpoint gguf lesson worker_message site_models hub_listing}; do
  log="fuzz/logs/$target.log"
  mkdir -p fuzz/logs "fuzz/corpus/$target"
  echo "== $target: ${BUDGET}s"
  cargo +nightly fuzz build "$target" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
  cargo +nightly fuzz run "$target" "fuzz/corpus/$target" -- -max_total_time="$BUDGET" -print_final_stats=1 -max_len=65536 -timeout=10 -rss_limit_mb=4096 >>"$log" 2>&1 || true
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
  crashes=$(ls "fuzz/artifacts/$target" 2>/dev/null | wc -l)
  echo "$target: ${execs:-?} executions, $crashes crash/timeout artifacts (log: $log)"
done
