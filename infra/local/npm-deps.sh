#!/usr/bin/env bash
# Installs npm dependencies from the lockfile unless node_modules already matches it.
set -euo pipefail
cd "$(dirname "$0")/../.."
stamp=node_modules/.tuber-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "installing npm dependencies from the lockfile…"
# `npm install` rather than `npm ci`: the registry reachable here has no builds of some
# other-platform optional packages (@rspack/binding-darwin-*, @swc/core-win32-*), so the lockfile
# cannot list them and `npm ci` refuses it; `npm install` installs exactly the locked versions.
npm install --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
