#!/usr/bin/env bash
# oasdiff (github.com/oasdiff/oasdiff), built once from the Go module proxy into the cache, then run with
# the arguments given: the OpenAPI breaking-change check of docs/delivery.md.
#   oasdiff.sh breaking <base.json> <revision.json> --fail-on ERR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
OASDIFF_VERSION=v1.37.0
bin="$TUBER_CACHE/bin/oasdiff-$OASDIFF_VERSION"
if [ ! -x "$bin" ]; then
  log "building oasdiff $OASDIFF_VERSION (once; cached in $TUBER_CACHE)"
  gobin=$(mktemp -d)
  GOBIN=$gobin go install -trimpath "github.com/oasdiff/oasdiff@$OASDIFF_VERSION" >&2
  mv "$gobin/oasdiff" "$bin"
  rmdir "$gobin"
fi
exec "$bin" "$@"
