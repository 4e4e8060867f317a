#!/usr/bin/env bash
# make rebuild-prices [REPLACE=1]: rebuilds the price guide from the event stream with the catalog's own
# credentials (services/catalog/src/prices/rebuild-cli.ts, docs/adr/0072) and compares it with the live one. In a
# deployment the same program runs in the catalog's container: node dist/prices/rebuild-cli.js [--replace].
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source infra/local/lib.sh
[ -f services/catalog/dist/prices/rebuild-cli.js ] || { log "services/catalog is not built: make build"; exit 1; }
mapfile -t vars < <(bash infra/local/app.sh env catalog)
exec env "${vars[@]}" node services/catalog/dist/prices/rebuild-cli.js "$@"
