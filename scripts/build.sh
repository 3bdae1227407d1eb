#!/usr/bin/env bash
# Builds the page into dist/ (release): app + worker wasm (single-threaded and
# threaded), bundled model, CSP.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
trunk build index.html --release
node scripts/csp-hash.mjs dist/index.html
# The worker again with wasm threads, for pages served cross-origin isolated.
scripts/build-threaded-worker.sh dist
# What a lesson package carries of the page.
node scripts/site-files.mjs dist
