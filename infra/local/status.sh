#!/usr/bin/env bash
# Shows which local servers run and where (all, or those named); exits 1 if any is not running.
# Only this checkout's own daemons count as running (lib.sh's identity check); a port held by
# another program is shown with that program's pid and command. --quiet prints nothing.
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
quiet=0
[ "${1:-}" = --quiet ] && { quiet=1; shift; }
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < "$here/servers.list"; fi
declare -A where=(
  [postgres]="postgres://127.0.0.1:$POSTGRES_PORT (FerretDB's backend)"
  [ferretdb]="mongodb://127.0.0.1:$MONGO_PORT"
  [nats]="nats://127.0.0.1:$NATS_PORT (monitor :$NATS_MONITOR_PORT)"
  [redis]="redis://127.0.0.1:$REDIS_PORT"
  [redis-readmodel]="redis://127.0.0.1:$READMODEL_REDIS_PORT (the catalog's read model, $READMODEL_REDIS_MAXMEMORY)"
  [minio]="http://127.0.0.1:$MINIO_PORT (bucket $MINIO_BUCKET, public at /files/)"
  [mailpit]="smtp 127.0.0.1:$MAILPIT_SMTP_PORT, http://localhost:$MAILPIT_HTTP_PORT"
  [sms-catcher]="http://127.0.0.1:$SMS_CATCHER_PORT (SMS API; caught messages at /api/messages)"
  [keycloak]="http://127.0.0.1:$KEYCLOAK_PORT/auth (public $PUBLIC_URL/auth)"
  [gateway]="$PUBLIC_URL"
  [jaeger]="http://127.0.0.1:$JAEGER_UI_PORT/api/traces (OTLP :$OTLP_GRPC_PORT grpc, :$OTLP_HTTP_PORT http)"
  [gateway-spans]="udp 127.0.0.1:$GATEWAY_SPANS_PORT -> OTLP (gateway spans; /health)"
)
down=0
for server in "${names[@]}"; do
  # FerretDB's PostgreSQL is shown with it.
  [ "$server" = ferretdb ] && set -- postgres ferretdb || set -- "$server"
  # The gateway's span relay is started and stopped with Jaeger (docs/adr/0038).
  [ "$server" = jaeger ] && set -- jaeger gateway-spans
  for name in "$@"; do
    if is_running "$name"; then
      state=running
    else
      state=stopped
      down=1
    fi
    [ $quiet = 1 ] && continue
    printf '%-15s %-8s %-66s %s\n' "$name" "$state" "${where[$name]:-}" "$TUBER_STATE/logs/$name.log"
    [ $state = stopped ] || continue
    for var in $(ports_of "$name"); do
      for holder in $(port_holders "${!var}"); do
        printf '                %s %s is held by %s, not by this checkout\n' "$var" "${!var}" "$(describe_pid "$holder")"
      done
    done
  done
done
exit $down
