#!/usr/bin/env bash
# Starts, stops and reports the product's own processes: the six services and the four
# front-end servers, each a daemon with a log under $TUBER_STATE/logs (see lib.sh).
#   app.sh start|stop|restart|status [name...]   names: auth profile catalog media nutrition orders shell landing buyer farmer
# `restart` is what to use after a build: sirv lists its files once at start, and a service runs
# the code it started with.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
root=$(cd "$here/../.." && pwd)

SERVICES=(auth profile catalog media nutrition orders)
FRONTENDS=(shell landing buyer farmer)

port_of() {
  case $1 in
    auth) echo "$AUTH_PORT" ;; profile) echo "$PROFILE_PORT" ;; catalog) echo "$CATALOG_PORT" ;;
    media) echo "$MEDIA_PORT" ;; nutrition) echo "$NUTRITION_PORT" ;; orders) echo "$ORDERS_PORT" ;;
    shell) echo "$SHELL_PORT" ;; landing) echo "$LANDING_PORT" ;; buyer) echo "$BUYER_PORT" ;; farmer) echo "$FARMER_PORT" ;;
    *) echo "unknown process: $1" >&2; return 1 ;;
  esac
}

is_service() { [[ " ${SERVICES[*]} " == *" $1 "* ]]; }

# Environment of a service: connection strings from the ports, and the service's own credentials
# the infra generated (docs/adr/0017): its NATS user, its Redis ACL user, its FerretDB role (the
# database of its name), and for media its MinIO user; a service gets only what it uses.
service_env() {
  local name=$1
  printf '%s\n' \
    "PORT=$(port_of "$name")" "HOST=127.0.0.1" "NODE_ENV=${NODE_ENV:-production}" "LOG_LEVEL=${LOG_LEVEL:-info}" \
    "REDIS_URL=redis://$name:$(secret "redis-$name-password")@127.0.0.1:${REDIS_PORT}" \
    "KEYCLOAK_URL=http://127.0.0.1:${KEYCLOAK_PORT}/auth" "KEYCLOAK_REALM=${KEYCLOAK_REALM}" \
    "OIDC_ISSUER=${PUBLIC_URL}/auth/realms/${KEYCLOAK_REALM}" "OIDC_AUDIENCE=tuber-api" \
    "PUBLIC_URL=${PUBLIC_URL}"
  case $name in auth | profile | catalog | media | orders) echo "NATS_URL=nats://$name:$(secret "nats-$name-password")@127.0.0.1:${NATS_PORT}" ;; esac
  case $name in profile | catalog | media | orders) echo "MONGO_URL=mongodb://$name:$(secret "mongo-$name-password")@127.0.0.1:${MONGO_PORT}/${name}?authMechanism=${MONGO_AUTH_MECHANISM:-PLAIN}" ;; esac
  case $name in
    auth)
      printf '%s\n' "KEYCLOAK_AUTH_CLIENT_SECRET=$(secret keycloak-auth-client-secret)" \
        "SMTP_HOST=127.0.0.1" "SMTP_PORT=${MAILPIT_SMTP_PORT}" ;;
    orders)
      # Notification e-mails go through the local mail catcher, like the auth service's.
      printf '%s\n' "SMTP_HOST=127.0.0.1" "SMTP_PORT=${MAILPIT_SMTP_PORT}" ;;
    media)
      printf '%s\n' "MINIO_ENDPOINT=127.0.0.1" "MINIO_PORT=${MINIO_PORT}" "MINIO_BUCKET=${MINIO_BUCKET}" \
        "MINIO_ACCESS_KEY=media" "MINIO_SECRET_KEY=$(secret minio-media-password)" \
        "MALLOC_ARENA_MAX=2" ;;
    nutrition)
      printf '%s\n' "NUTRITION_UPSTREAM_URL=${NUTRITION_UPSTREAM_URL:-}" "NUTRITION_UPSTREAM_APP_ID=${NUTRITION_UPSTREAM_APP_ID:-}" \
        "NUTRITION_UPSTREAM_APP_KEY=${NUTRITION_UPSTREAM_APP_KEY:-}" ;;
  esac
}

secret() {
  local file="$TUBER_STATE/secrets/$1"
  [ -f "$file" ] && cat "$file" || echo ""
}

start_one() {
  local name=$1 port
  port=$(port_of "$name")
  if is_service "$name"; then
    [ -f "$root/services/$name/dist/server.js" ] || { echo "services/$name is not built: run 'make build'" >&2; return 1; }
    mapfile -t vars < <(service_env "$name")
    start_daemon "$name" env "${vars[@]}" node "$root/services/$name/dist/server.js"
    wait_http "http://127.0.0.1:$port/health" "$name"
  else
    # The shell's build has its page; a remote's production build has no page, only what the shell loads.
    local first=index.html
    [ "$name" = shell ] || first=mf-manifest.json
    [ -f "$root/frontends/$name/dist/$first" ] || { echo "frontends/$name is not built: run 'make build'" >&2; return 1; }
    local flags=(--cors --quiet --host 127.0.0.1 --port "$port")
    [ "$name" = shell ] && flags+=(--single)
    start_daemon "$name" "$root/node_modules/.bin/sirv" "$root/frontends/$name/dist" "${flags[@]}"
    wait_http "http://127.0.0.1:$port/$([ "$name" = shell ] || echo "$first")" "$name"
  fi
}

cmd=${1:-status}
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${SERVICES[@]}" "${FRONTENDS[@]}")

case $cmd in
  start)
    # A failed start stops what it launched (its own journal, docs/adr/0016); processes that
    # already ran are left alone.
    TUBER_LAUNCH_LOG=$(mktemp "$TUBER_STATE/app-launched.XXXXXX")
    export TUBER_LAUNCH_LOG
    trap 'rm -f "$TUBER_LAUNCH_LOG"' EXIT
    for name in "${names[@]}"; do start_one "$name" & done
    failed=0
    for job in $(jobs -p); do wait "$job" || failed=1; done
    if [ $failed = 1 ]; then
      [ -s "$TUBER_LAUNCH_LOG" ] && echo "stopping what this start launched: $(tac "$TUBER_LAUNCH_LOG" | tr '\n' ' ')" >&2
      stop_launched "$TUBER_LAUNCH_LOG"
      echo "some processes did not start (see above); logs in $TUBER_STATE/logs/" >&2
      exit 1
    fi
    ;;
  stop)
    for name in "${names[@]}"; do stop_daemon "$name" & done
    wait
    ;;
  restart)
    bash "$0" stop "${names[@]}"
    bash "$0" start "${names[@]}"
    ;;
  status)
    for name in "${names[@]}"; do
      if is_running "$name"; then state=running; else state=stopped; fi
      printf '%-10s %-8s http://127.0.0.1:%-6s log: %s\n' "$name" "$state" "$(port_of "$name")" "$TUBER_STATE/logs/$name.log"
    done
    ;;
  *) echo "usage: app.sh start|stop|restart|status [name...]" >&2; exit 2 ;;
esac
