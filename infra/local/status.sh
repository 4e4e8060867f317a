#!/usr/bin/env bash
# Shows which local servers run and where; exits 1 if any is down. --quiet prints nothing.
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
quiet=0
[ "${1:-}" = --quiet ] && quiet=1
declare -A where=(
  [postgres]="postgres://127.0.0.1:${POSTGRES_PORT:-5433} (FerretDB's backend)"
  [ferretdb]="mongodb://127.0.0.1:$MONGO_PORT"
  [nats]="nats://127.0.0.1:$NATS_PORT (monitor :$NATS_MONITOR_PORT)"
  [redis]="redis://127.0.0.1:$REDIS_PORT"
  [minio]="http://127.0.0.1:$MINIO_PORT (bucket $MINIO_BUCKET, public at /files/)"
  [mailpit]="smtp 127.0.0.1:$MAILPIT_SMTP_PORT, http://localhost:$MAILPIT_HTTP_PORT"
  [keycloak]="http://127.0.0.1:$KEYCLOAK_PORT/auth (public $PUBLIC_URL/auth)"
  [gateway]="$PUBLIC_URL"
)
down=0
while read -r server; do
  if is_running "$server"; then state=running; else state=stopped; down=1; fi
  [ $quiet = 1 ] || printf '%-9s %-8s %-66s %s\n' "$server" "$state" "${where[$server]}" "$TUBER_STATE/logs/$server.log"
done < <(sed 's/^ferretdb$/postgres\nferretdb/' "$here/servers.list")
exit $down
