#!/usr/bin/env bash
# The code's gates, run by scripts/test.sh before any test: rustfmt's format,
# a module graph without circles (scripts/module_cycles.py), and clippy with
# warnings as errors (the workspace's lints are in Cargo.toml,
# `undocumented_unsafe_blocks` among them) for every build the project makes:
# native, wasm (the page and the single-threaded worker), and the threaded
# worker's own code (nightly, `+atomics`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

cargo fmt --all --check
# Dependencies point one way: no two modules import each other, directly or
# round a circle.
python3 scripts/module_cycles.py
# ARCHITECTURE.md names only files and folders that exist.
python3 scripts/architecture_paths.py
# Every data-testid hook is listed in the README's Contracts section.
python3 scripts/contracts_check.py
cargo fmt --manifest-path fuzz/Cargo.toml --check
cargo clippy --workspace --all-targets -- -D warnings
# The API docs build without a warning (their examples run as doctests).
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
cargo clippy --workspace --all-targets --target wasm32-unknown-unknown -- -D warnings
# Code that exists under `+atomics` alone: ntl-parallel's helper threads (all
# of its unsafe code) and the worker's few lines that start them. Only the
# first is linted there: the worker would drag candle through a std rebuilt
# with atomics (about 7 more minutes on a fresh machine). Own target dir: the
# flags differ from every other build.
nightly=$(cat scripts/nightly-toolchain)
RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128" \
  cargo "+$nightly" clippy -p ntl-parallel --all-targets --target wasm32-unknown-unknown \
  -Z build-std=panic_abort,std --target-dir "${CARGO_TARGET_DIR:-$PWD/target}/threads-lint" -- -D warnings
