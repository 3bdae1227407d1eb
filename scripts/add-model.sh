#!/usr/bin/env bash
# A hub model into www/models/ beside the page, and the folders' index
# (scripts/add-model.mjs says what it fetches).
#   scripts/add-model.sh OWNER/NAME[:TAG|:FILE.gguf] [--as FOLDER] [--into DIR]
set -euo pipefail
exec node "$(dirname "$0")/add-model.mjs" "$@"
