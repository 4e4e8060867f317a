#!/usr/bin/env bash
# `make chaos`: the fault scenarios (test/chaos/*.test.ts, the vitest project "chaos") against the
# running local stack, then docs/reliability.md from the records they wrote (test/chaos/render.ts).
#   CHAOS_SCALE=full (the default here) or short (the size `make test` runs)
#   extra arguments are vitest file filters:  bash test/chaos/run.sh test/chaos/r1-
# Starts the servers and processes that do not run (like bench/run.sh) and leaves them running.
# The scenarios kill, restart and pause shared servers, so the run holds /tmp/tuber-stack.lock
# (the lock every restart and integration run on a shared checkout takes); each scenario puts back
# what it broke, and the stack is checked whole at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# shellcheck source=../../infra/local/lib.sh
source infra/local/lib.sh

export CHAOS_SCALE=${CHAOS_SCALE:-full}
export CHAOS_RESULTS=${CHAOS_RESULTS:-$TUBER_STATE/chaos}
bash infra/local/status.sh --quiet || bash infra/local/up.sh
bash infra/local/app.sh start

# The tests' environment, as test/run.sh exports it (they reach the servers as `tuber-test`).
export PUBLIC_URL MINIO_ACCESS_KEY MINIO_SECRET_KEY KEYCLOAK_AUTH_CLIENT_SECRET
KEYCLOAK_AUTH_CLIENT_SECRET=$(cat "$TUBER_STATE/secrets/keycloak-auth-client-secret" 2>/dev/null || true)
MINIO_ACCESS_KEY=$(cat "$TUBER_STATE/secrets/minio-root-user" 2>/dev/null || true)
MINIO_SECRET_KEY=$(cat "$TUBER_STATE/secrets/minio-root-password" 2>/dev/null || true)

# A whole run starts from no records; a run of some scenarios keeps the others' last records.
mkdir -p "$CHAOS_RESULTS"
[ $# -gt 0 ] || rm -f "$CHAOS_RESULTS"/*.json

echo "== fault scenarios ($CHAOS_SCALE)"
status=0
mkdir -p test-artifacts
flock -o /tmp/tuber-stack.lock npx vitest run --project chaos --reporter=default --reporter=json \
  --outputFile.json=test-artifacts/vitest-chaos.json "$@" || status=1

npx tsx --conditions=@tuber/source test/chaos/render.ts

# Whatever a scenario did, the stack must be whole again.
if ! bash infra/local/status.sh --quiet || ! bash infra/local/app.sh status | awk '$2 != "running" { bad = 1 } END { exit bad }'; then
  echo "the stack is not whole after the fault scenarios:" >&2
  bash infra/local/status.sh >&2 || true
  bash infra/local/app.sh status >&2 || true
  status=1
fi
exit $status
