#!/usr/bin/env bash
# Prints KEY=value for every secret infra/compose/secrets.env.example names that is not set yet in
# the environment or in the .env beside docker-compose.yml (docs/adr/0017):
#   bash infra/compose/secrets.sh >> .env
# Values come from $TUBER_STATE/secrets (generated there on first use, like the local servers'
# secrets), so the containers and a local run of the services (TUBER_INFRA=containers) agree.
# --test adds the `tuber-test` users the tests sign in with (infra/compose/test-infra.yml).
set -euo pipefail
source "$(dirname "$0")/../local/lib.sh"

names=$(sed -n 's/^\([A-Z][A-Z0-9_]*\)=$/\1/p' "$TUBER_ROOT/infra/compose/secrets.env.example")
if [ "${1:-}" = --test ]; then names+=$'\n'"NATS_TUBER_TEST_PASSWORD"$'\n'"REDIS_TUBER_TEST_PASSWORD"$'\n'"MONGO_TUBER_TEST_PASSWORD"; fi

for name in $names; do
  [ -n "${!name:-}" ] && continue
  # NATS_AUTH_PASSWORD -> secrets/nats-auth-password; the root user's name is short, like minio.sh makes it.
  file=$(echo "$name" | tr 'A-Z_' 'a-z-')
  case $name in MINIO_ROOT_USER) bytes=9 ;; KEYCLOAK_AUTH_CLIENT_SECRET | KEYCLOAK_MODERATION_CLIENT_SECRET) bytes=32 ;; *) bytes=24 ;; esac
  echo "$name=$(ensure_secret "$file" "$bytes")"
done
