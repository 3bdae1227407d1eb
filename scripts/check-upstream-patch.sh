#!/usr/bin/env bash
# Checks the wasm SIMD kernels offered to candle
# (docs/upstream/candle-wasm-q5/): applies the patch to candle-core 0.11.1 as
# cargo downloaded it, into target/upstream/candle-core, and runs
# docs/upstream/candle-wasm-q5/check in headless Chromium — the patched
# `vec_dot`s of Q5_0, Q4_1, Q5_1 and Q5_K against candle's own generic ones,
# bit for bit. About 4 minutes; not part of scripts/test.sh (the engine's own
# kernels are tested there).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
cargo fetch --quiet
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/candle-core-0.11.1 | head -n 1)
rm -rf target/upstream/candle-core
mkdir -p target/upstream
cp -r "$src" target/upstream/candle-core
patch --quiet -d target/upstream/candle-core -p1 < docs/upstream/candle-wasm-q5/candle-core-0.11.1.patch
cd docs/upstream/candle-wasm-q5/check
CARGO_TARGET_DIR=../../../../target/upstream/check \
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
WASM_BINDGEN_TEST_TIMEOUT=600 \
  cargo test --release --target wasm32-unknown-unknown --test same_bits
