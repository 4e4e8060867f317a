#!/usr/bin/env bash
# `make bench`: runs every bench/*.bench.ts against the running local servers and prints figures
# as ratios against a baseline measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/local/lib.sh
bash infra/local/status.sh --quiet || bash infra/local/up.sh
export KEYCLOAK_AUTH_CLIENT_SECRET MINIO_ACCESS_KEY MINIO_SECRET_KEY
KEYCLOAK_AUTH_CLIENT_SECRET=$(cat "$TUBER_STATE/secrets/keycloak-auth-client-secret")
MINIO_ACCESS_KEY=$(cat "$TUBER_STATE/secrets/minio-root-user")
MINIO_SECRET_KEY=$(cat "$TUBER_STATE/secrets/minio-root-password")
# The upload benchmark goes through the gateway to the running services.
bash infra/local/app.sh start auth profile catalog media nutrition
for bench in bench/*.bench.ts; do
  echo "== $bench"
  npx tsx --conditions=@tuber/source "$bench"
done
