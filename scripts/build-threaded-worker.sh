#!/usr/bin/env bash
# Builds the worker a second time with wasm threads, into DIR (default dist/)
# as worker_mt*. The page loads it instead of the single-threaded worker when
# it is cross-origin isolated (scripts/serve.mjs sends the headers for that).
# Threads need std rebuilt with atomics: a pinned nightly with rust-src
# (scripts/setup.sh installs it). Its own target directory, because the flags
# differ from every other build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tests/e2e/node_modules/.bin:$HOME/.cargo/bin:$PATH"
out=${1:-dist}
nightly=$(cat scripts/nightly-toolchain)
target="${CARGO_TARGET_DIR:-$PWD/target}/threads"

# Shared, imported memory (so helpers can instantiate the module on it), with
# the thread-local-storage symbols wasm-bindgen's thread start-up needs.
link="--shared-memory --import-memory --max-memory=4294967296 --export=__wasm_init_tls --export=__tls_size --export=__tls_align --export=__tls_base"
RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128 $(printf -- '-C link-arg=%s ' $link)" \
  cargo "+$nightly" build -p ntl-worker --bin worker --target wasm32-unknown-unknown --release \
  -Z build-std=panic_abort,std --target-dir "$target"

wasm-bindgen --target no-modules --no-typescript --out-dir "$out" --out-name worker_mt \
  "$target/wasm32-unknown-unknown/release/worker.wasm"
wasm-opt -O3 --enable-threads --enable-simd --enable-bulk-memory --enable-mutable-globals \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-multivalue \
  "$out/worker_mt_bg.wasm" -o "$out/worker_mt_bg.wasm"
cp www/threads/worker_mt_loader.js www/threads/worker_mt_helper.js "$out/"
