#!/usr/bin/env bash
# Dead letters (docs/adr/0024): events a consumer gave up on are parked in the JetStream stream
# TUBER_DLQ. This lists them, or re-drives them to their original subjects once the cause is fixed
# (each is removed from TUBER_DLQ only after the event stream took it again).
#   bash infra/local/redrive.sh [list]                          # what is parked, oldest first
#   bash infra/local/redrive.sh redrive [--consumer NAME] [--seq N]
# `make redrive ARGS="redrive --consumer catalog-farmers"` does the same. Re-driving publishes to
# any service's subjects, so it signs in as the all-rights user (tuber-test locally; set
# REDRIVE_NATS_USER to another user whose password is in $TUBER_STATE/secrets/nats-<user>-password).
source "$(dirname "$0")/lib.sh"
user=${REDRIVE_NATS_USER:-tuber-test}
secret="$TUBER_STATE/secrets/nats-$user-password"
[ -r "$secret" ] || { log "redrive: no NATS password for $user in $secret (start the servers first: make infra-up)"; exit 1; }
NATS_URL=$(node -e 'const [u, p, port] = process.argv.slice(1); console.log(`nats://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}`)' \
  "$user" "$(cat "$secret")" "${NATS_PORT:-4222}")
export NATS_URL
cd "$TUBER_ROOT"
exec npx tsx --conditions=@tuber/source services/kit/src/redrive.ts "$@"
