#!/usr/bin/env bash
# Installs npm dependencies from the lockfile unless node_modules already matches it.
set -euo pipefail
cd "$(dirname "$0")/../.."
stamp=node_modules/.tuber-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "installing npm dependencies (npm ci)…"
npm ci --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
