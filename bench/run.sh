#!/usr/bin/env bash
# `make bench`: runs every bench/*.bench.ts against the running local servers (each records its rows
# in .run/bench/<id>.json, figures as ratios against a baseline measured in the same run), then
# writes docs/performance.md (bench/render.ts). A benchmark that fails does not stop the others;
# the run names the failed ones and exits non-zero at the end.
#   BENCH_ONLY="service-overhead events"   run only these (names without .bench.ts)
set -uo pipefail
cd "$(dirname "$0")/.."
source infra/local/lib.sh
set +e
bash infra/local/status.sh --quiet || bash infra/local/up.sh || { log "the local stack did not start"; exit 1; }
# The upload and RSS benchmarks go through the gateway to the running services and front ends.
bash infra/local/app.sh start || { log "the services did not start"; exit 1; }
# P7's baseline is `nats bench`: built once from the Go module proxy into the cache.
bash infra/local/nats-cli.sh > /dev/null || log "the nats command-line client could not be built; P7 will fail"

export KEYCLOAK_AUTH_CLIENT_SECRET MINIO_ACCESS_KEY MINIO_SECRET_KEY
KEYCLOAK_AUTH_CLIENT_SECRET=$(cat "$TUBER_STATE/secrets/keycloak-auth-client-secret")
MINIO_ACCESS_KEY=$(cat "$TUBER_STATE/secrets/minio-root-user")
MINIO_SECRET_KEY=$(cat "$TUBER_STATE/secrets/minio-root-password")

failed=()
for bench in bench/*.bench.ts; do
  name=$(basename "$bench" .bench.ts)
  if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $name "* ]]; then continue; fi
  echo "== $bench ($(date -u +%T))"
  if ! npx tsx --conditions=@tuber/source "$bench"; then
    log "$bench failed"
    failed+=("$name")
  fi
done

npx tsx bench/render.ts || failed+=(render)
if [ ${#failed[@]} -gt 0 ]; then
  log "failed: ${failed[*]}"
  exit 1
fi
