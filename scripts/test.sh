#!/usr/bin/env bash
# The README's "run every test" command: native tests, the engine as wasm in
# headless Chromium, then the built page end to end in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"

echo "== gates: formatting and lints (warnings are errors)"
scripts/lint.sh

echo "== native: decoding, protocol, engine (HF parity), CLI, page logic"
cargo test --workspace --exclude ntl-worker

echo "== wasm in headless Chromium: the engine against the same fixtures"
# crates/engine/webdriver.json lifts chromedriver's 30 s script timeout: the
# runner waits on the page while tests run back to back on its main thread, and
# on a slow minute the HF suite held it past 30 s and the run was cut off.
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
WASM_BINDGEN_TEST_TIMEOUT=1200 \
  cargo test -p ntl-engine --target wasm32-unknown-unknown --test hf_parity --test llama_parity --test behaviour --test loading --test kernel --test chat --test gguf_parity --test gguf_tokenizer --test minigpt_parity

echo "== the page, built and served on 127.0.0.1, driven in headless Chromium"
scripts/build.sh
# scripts/add-model.mjs picks a GGUF repo's file with this binary (`cargo run`);
# built here, so a first build's minutes are not spent inside a test's limit.
cargo build -q -p ntl-cli --bin gguf-pick
(cd tests/e2e && npm test)
