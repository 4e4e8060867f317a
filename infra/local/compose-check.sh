#!/usr/bin/env bash
# Loads docker-compose.yml as `docker compose` would, with compose-go (infra/compose/check, issue 23): the
# project's .env.example, then the secrets infra/compose/secrets.sh generates. Prints one line per service;
# exits non-zero with the loader's error. The checker is built once per version of its sources (cached).
#   compose-check.sh [compose-file] [more env files…]   (e.g. infra/compose/release.env: each unit's release)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
src="$TUBER_ROOT/infra/compose/check"
hash=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-12)
bin="$TUBER_CACHE/bin/compose-check-$hash"
if [ ! -x "$bin" ]; then
  log "building the compose-go checker (once)"
  (cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$bin.tmp" .) && mv "$bin.tmp" "$bin"
fi
secrets=$(mktemp)
trap 'rm -f "$secrets"' EXIT
bash "$TUBER_ROOT/infra/compose/secrets.sh" > "$secrets"
"$bin" "${1:-$TUBER_ROOT/docker-compose.yml}" "$TUBER_ROOT/.env.example" "$secrets" "${@:2}"
