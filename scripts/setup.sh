#!/usr/bin/env bash
# Installs what building and testing need, skipping what is already there.
# Everything comes from the package registries (crates.io, npm, Debian).
set -euo pipefail
cd "$(dirname "$0")/.."

need_browser=${NEED_BROWSER:-1}
log() { printf '\n== %s\n' "$*"; }

rustup target list --installed | grep -q wasm32-unknown-unknown || { log "wasm32 target"; rustup target add wasm32-unknown-unknown; }
# The gates (scripts/lint.sh).
for c in rustfmt clippy; do
  rustup component list --installed | grep -q "^$c" || { log "$c"; rustup component add "$c"; }
done

# The threaded worker rebuilds std with atomics: a pinned nightly with rust-src
# (and clippy, for the code only that build compiles).
nightly=$(cat scripts/nightly-toolchain)
installed=$(rustup component list --toolchain "$nightly" --installed 2>/dev/null || true)
if ! rustup run "$nightly" rustc --version >/dev/null 2>&1 || ! grep -q '^rust-src' <<<"$installed" || ! grep -q '^clippy' <<<"$installed"; then
  log "$nightly with rust-src and clippy (about a minute, once)"
  rustup toolchain install "$nightly" --profile minimal --component rust-src,clippy --target wasm32-unknown-unknown
fi

# Trunk 0.22 needs a newer rustc than this machine's 1.95.
if ! trunk --version 2>/dev/null | grep -q '0.21.14'; then
  log "trunk 0.21.14 (about 15-27 minutes, once)"
  cargo install --locked trunk --version 0.21.14
fi

# Trunk would download wasm-bindgen from GitHub; give it the exact version Cargo.lock uses.
wb=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -q " $wb\$"; then
  log "wasm-bindgen-cli $wb (about 6 minutes, once)"
  # Not --locked: its lockfile pins a crate version this registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$wb"
fi

# wasm-opt (binaryen 132 from npm; Debian's is too old), playwright-core, axe,
# puppeteer-core (drives a stock Firefox over WebDriver BiDi), selenium-webdriver
# (drives WebKitGTK through its W3C WebDriver).
if [ ! -x tests/e2e/node_modules/.bin/wasm-opt ] || [ ! -d tests/e2e/node_modules/playwright-core ] \
  || [ ! -d tests/e2e/node_modules/@axe-core/playwright ] || [ ! -d tests/e2e/node_modules/puppeteer-core ] \
  || [ ! -d tests/e2e/node_modules/selenium-webdriver ]; then
  log "npm packages for the build and the browser tests"
  (cd tests/e2e && npm ci --no-audit --no-fund)
fi

if [ "$need_browser" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  log "chromium and chromedriver (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if [ "$need_browser" = 1 ] && ! command -v firefox-esr >/dev/null; then
  log "firefox-esr (Debian), for the Firefox suite"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null
fi
# WebKitGTK (Safari's engine family) with its WebDriver, and Xvfb for its
# MiniBrowser, which has no headless mode of its own.
if [ "$need_browser" = 1 ] && { ! command -v WebKitWebDriver >/dev/null || ! command -v xvfb-run >/dev/null; }; then
  log "webkit2gtk-driver and xvfb (Debian), for the WebKit suite"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq webkit2gtk-driver xvfb >/dev/null
fi
# A system font with Chinese glyphs, as a Chinese reader's machine has: the
# layout tests at 390 px measure real CJK text, and the screenshots show it.
if [ "$need_browser" = 1 ] && [ ! -d /usr/share/fonts/opentype/noto ]; then
  log "fonts-noto-cjk (Debian), for the Chinese page's layout"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null
fi
