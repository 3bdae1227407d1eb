#!/usr/bin/env bash
# Builds the page into dist/ (release): app + worker wasm, bundled model, CSP.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
trunk build index.html --release
node scripts/csp-hash.mjs dist/index.html
