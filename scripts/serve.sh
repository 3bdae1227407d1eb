#!/usr/bin/env bash
# The README's "run the app" command: installs what is missing, builds, serves
# on http://127.0.0.1:8080/ (PORT to change). The page loads distilgpt2 from
# the model hub and falls back to the bundled offline model when it cannot;
# open /?model=bundled to start offline directly.
set -euo pipefail
cd "$(dirname "$0")/.."
NEED_BROWSER=0 scripts/setup.sh
scripts/build.sh
exec node scripts/serve.mjs dist "${PORT:-8080}"
