#!/usr/bin/env bash
# Starts, stops and reports the product's own processes: the seven services and the five
# front-end servers, each a daemon with a log under $TUBER_STATE/logs (see lib.sh).
#   app.sh start|stop|restart|status [name...]   names: auth profile catalog media nutrition orders moderation shell landing buyer farmer moderation-ui
# A front end's daemon is named after its folder under frontends/, except the moderation desk's
# (frontends/moderation, served at /mf/moderation/): `moderation` is the service, so the desk is moderation-ui.
#   app.sh env SERVICE [REPLICA]                   the environment a service replica gets, KEY=VALUE a line
# Replicas (docs/adr/0039): with REPLICAS=N (environment or .env; default 1) each service runs N
# processes: replica 0 is NAME on its usual port, replica i is NAME-i on <port>+100*i (catalog-1 on
# 4103, its log logs/catalog-1.log). A service name means all its replicas; NAME-i means one.
# stop/status also see replicas left from an earlier start with a larger REPLICAS.
# `restart` is what to use after a build: sirv lists its files once at start, and a service runs
# the code it started with.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
root=$(cd "$here/../.." && pwd)

SERVICES=(auth profile catalog media nutrition orders moderation)
FRONTENDS=(shell landing buyer farmer moderation-ui)
# A front end's folder under frontends/ (and its remote's name): the daemon's name without the -ui that
# keeps it apart from the service of the same name.
frontend_dir() { echo "${1%-ui}"; }

port_of() {
  case $1 in
    auth) echo "$AUTH_PORT" ;; profile) echo "$PROFILE_PORT" ;; catalog) echo "$CATALOG_PORT" ;;
    media) echo "$MEDIA_PORT" ;; nutrition) echo "$NUTRITION_PORT" ;; orders) echo "$ORDERS_PORT" ;;
    moderation) echo "$MODERATION_PORT" ;;
    shell) echo "$SHELL_PORT" ;; landing) echo "$LANDING_PORT" ;; buyer) echo "$BUYER_PORT" ;; farmer) echo "$FARMER_PORT" ;;
    moderation-ui) echo "$MODERATION_UI_PORT" ;;
    *) echo "unknown process: $1" >&2; return 1 ;;
  esac
}

is_service() { [[ " ${SERVICES[*]} " == *" $1 "* ]]; }

# ---- replicas (docs/adr/0039) ----
REPLICAS=${REPLICAS:-1}
[[ $REPLICAS =~ ^[1-9]$ ]] || { echo "REPLICAS must be a whole number from 1 to 9 (it is '$REPLICAS')" >&2; exit 2; }
REPLICA_PORT_STEP=100
# Replica i of a service listens on the service's port + 100*i.
replica_port() { echo $(($(port_of "$1") + REPLICA_PORT_STEP * ${2:-0})); }
# The daemon name of replica i: the service's own name for replica 0, NAME-i for the others.
replica_name() { if [ "${2:-0}" = 0 ]; then echo "$1"; else echo "$1-$2"; fi; }
# lib.sh checks a daemon's ports before it starts: tell it the ports of the extra replicas.
for _svc in "${SERVICES[@]}"; do
  for ((_i = 1; _i < 10; _i++)); do
    _var="${_svc^^}_${_i}_PORT"
    printf -v "$_var" '%s' "$(replica_port "$_svc" "$_i")"
    export "${_var?}"
    _tuber_ports[$_svc-$_i]=$_var
  done
done
unset _svc _i _var
# The daemons NAME stands for: a service's REPLICAS replicas (with `all`, also any higher ones still
# running from an earlier start), NAME-i alone, or a front end.
instances_of() {
  local name=$1 mode=${2:-} i pid
  if [[ $name =~ ^([a-z]+)-([1-9])$ ]] && is_service "${BASH_REMATCH[1]}"; then echo "$name"; return 0; fi
  if ! is_service "$name"; then echo "$name"; return 0; fi
  for ((i = 0; i < REPLICAS; i++)); do replica_name "$name" "$i"; done
  if [ "$mode" = all ]; then
    for pid in "$TUBER_STATE/pids/$name"-[1-9].pid; do
      [ -f "$pid" ] || continue
      i=${pid##*-}
      i=${i%.pid}
      [ "$i" -ge "$REPLICAS" ] && replica_name "$name" "$i"
    done
  fi
  return 0
}
# "catalog-1" -> "catalog 1"; "catalog" -> "catalog 0".
split_instance() {
  if [[ $1 =~ ^([a-z]+)-([1-9])$ ]] && is_service "${BASH_REMATCH[1]}"; then echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"; else echo "$1 0"; fi
}
instance_port() { local svc i; read -r svc i <<< "$(split_instance "$1")"; if is_service "$svc"; then replica_port "$svc" "$i"; else port_of "$svc"; fi; }

# Environment of a service: connection strings from the ports, and the service's own credentials
# the infra generated (docs/adr/0017): its NATS user, its Redis ACL user, its FerretDB role (the
# database of its name), and for media its MinIO user; a service gets only what it uses.
service_env() {
  local name=$1 replica=${2:-0}
  printf '%s\n' \
    "PORT=$(replica_port "$name" "$replica")" "HOST=127.0.0.1" "NODE_ENV=${NODE_ENV:-production}" "LOG_LEVEL=${LOG_LEVEL:-info}" \
    "REDIS_URL=redis://$name:$(secret "redis-$name-password")@127.0.0.1:${REDIS_PORT}" \
    "KEYCLOAK_URL=http://127.0.0.1:${KEYCLOAK_PORT}/auth" "KEYCLOAK_REALM=${KEYCLOAK_REALM}" \
    "OIDC_ISSUER=${PUBLIC_URL}/auth/realms/${KEYCLOAK_REALM}" "OIDC_AUDIENCE=tuber-api" \
    "PUBLIC_URL=${PUBLIC_URL}"
  case $name in auth | profile | catalog | media | orders | moderation) printf '%s\n' "NATS_URL=$(nats_url "$name")" "NATS_STREAM_REPLICAS=$(nats_replicas)" ;; esac
  # Telemetry (docs/adr/0037): traces to the local trace store unless OTEL_EXPORTER_OTLP_ENDPOINT says
  # otherwise (empty: none); metrics on the replica's port + METRICS_PORT_OFFSET (empty: none).
  printf '%s\n' "OTEL_EXPORTER_OTLP_ENDPOINT=${OTEL_EXPORTER_OTLP_ENDPOINT-http://127.0.0.1:${OTLP_HTTP_PORT:-4318}}" \
    "METRICS_PORT=$([ -n "${METRICS_PORT_OFFSET:-}" ] && echo $(($(replica_port "$name" "$replica") + METRICS_PORT_OFFSET)) || echo 0)"
  # The catalog's read model in its own Redis (docs/adr/0061), as the same `catalog` user.
  # The clock make seed-market moves (services/kit/src/clock.ts, docs/adr/0072): no file, real time.
  case $name in catalog | orders) echo "SIMULATED_CLOCK_FILE=${SIMULATED_CLOCK_FILE:-$TUBER_STATE/simulated-clock.json}" ;; esac
  if [ "$name" = catalog ]; then echo "CATALOG_READMODEL_REDIS_URL=redis://catalog:$(secret redis-catalog-password)@127.0.0.1:${READMODEL_REDIS_PORT}"; fi
  case $name in profile | catalog | media | orders | moderation) echo "MONGO_URL=mongodb://$name:$(secret "mongo-$name-password")@127.0.0.1:${MONGO_PORT}/${name}?authMechanism=${MONGO_AUTH_MECHANISM:-PLAIN}" ;; esac
  case $name in
    auth)
      printf '%s\n' "KEYCLOAK_AUTH_CLIENT_SECRET=$(secret keycloak-auth-client-secret)" \
        "SMTP_HOST=127.0.0.1" "SMTP_PORT=${MAILPIT_SMTP_PORT}" ;;
    profile)
      # SMS (codes to phone numbers) go to the local SMS catcher (sms-catcher.sh), which speaks the provider's API.
      sms_env ;;
    orders)
      # Notification e-mails go through the local mail catcher, like the auth service's; SMS through the SMS catcher.
      printf '%s\n' "SMTP_HOST=127.0.0.1" "SMTP_PORT=${MAILPIT_SMTP_PORT}"
      sms_env ;;
    moderation)
      # Its Keycloak client's service account enables and disables accounts and ends their sign-ins (suspensions).
      echo "KEYCLOAK_MODERATION_CLIENT_SECRET=$(secret keycloak-moderation-client-secret)" ;;
    media)
      printf '%s\n' "MINIO_ENDPOINT=127.0.0.1" "MINIO_PORT=${MINIO_PORT}" "MINIO_BUCKET=${MINIO_BUCKET}" \
        "MINIO_ACCESS_KEY=media" "MINIO_SECRET_KEY=$(secret minio-media-password)" \
        "MALLOC_ARENA_MAX=2" ;;
    nutrition)
      printf '%s\n' "NUTRITION_UPSTREAM_URL=${NUTRITION_UPSTREAM_URL:-}" "NUTRITION_UPSTREAM_APP_ID=${NUTRITION_UPSTREAM_APP_ID:-}" \
        "NUTRITION_UPSTREAM_APP_KEY=${NUTRITION_UPSTREAM_APP_KEY:-}" ;;
  esac
}

# The SMS provider's API for the services that send SMS: the local catcher, with the key it expects.
sms_env() {
  printf '%s\n' "SMS_API_URL=http://127.0.0.1:${SMS_CATCHER_PORT}" "SMS_API_KEY=$(secret sms-api-key)" "SMS_SENDER_ID=TuberMkt"
}

# A service's NATS_URL: the one server, or with NATS_NODES=3 every node of the cluster (nats.sh,
# docs/adr/0040), the service's credentials on the first. Its streams keep one copy per node.
nats_url() {
  local url="nats://$1:$(secret "nats-$1-password")@127.0.0.1:${NATS_PORT}" n
  for n in $(seq 2 "${NATS_NODES:-1}"); do url+=",nats://127.0.0.1:$((NATS_PORT + n - 1))"; done
  echo "$url"
}
nats_replicas() { echo "${NATS_STREAM_REPLICAS:-${NATS_NODES:-1}}"; }

secret() {
  local file="$TUBER_STATE/secrets/$1"
  [ -f "$file" ] && cat "$file" || echo ""
}

start_one() {
  local instance=$1 name replica port
  read -r name replica <<< "$(split_instance "$instance")"
  port=$(instance_port "$instance")
  if is_service "$name"; then
    [ -f "$root/services/$name/dist/server.js" ] || { echo "services/$name is not built: run 'make build'" >&2; return 1; }
    mapfile -t vars < <(service_env "$name" "$replica")
    start_daemon "$instance" env "${vars[@]}" node "$root/services/$name/dist/server.js"
    wait_http "http://127.0.0.1:$port/health" "$instance"
  else
    # The shell's build has its page; a remote's production build has no page, only what the shell loads.
    local first=index.html
    [ "$name" = shell ] || first=mf-manifest.json
    # TUBER_DIST_<name> serves another build of that front end (the skew test's released builds, built by
    # infra/release/build-frontends.sh; a - in the name is a _ there: TUBER_DIST_moderation_ui); the
    # default is this checkout's.
    local dist_var="TUBER_DIST_${name//-/_}" dist
    dist=${!dist_var:-$root/frontends/$(frontend_dir "$name")/dist}
    [ -f "$dist/$first" ] || { echo "$dist has no $first: run 'make build'" >&2; return 1; }
    local flags=(--cors --quiet --host 127.0.0.1 --port "$port")
    [ "$name" = shell ] && flags+=(--single)
    start_daemon "$name" "$root/node_modules/.bin/sirv" "$dist" "${flags[@]}"
    wait_http "http://127.0.0.1:$port/$([ "$name" = shell ] || echo "$first")" "$name"
  fi
}

cmd=${1:-status}
shift || true
if [ "$cmd" = env ]; then
  is_service "${1:-}" || { echo "usage: app.sh env SERVICE [REPLICA]   (services: ${SERVICES[*]})" >&2; exit 2; }
  service_env "$1" "${2:-0}"
  exit 0
fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${SERVICES[@]}" "${FRONTENDS[@]}")
# Each name as the daemons it stands for (a service: its replicas).
mode=""
[ "$cmd" = start ] || mode=all
instances=()
for name in "${names[@]}"; do
  read -r base _ <<< "$(split_instance "$name")"
  port_of "$base" > /dev/null || exit 2
  mapfile -t -O "${#instances[@]}" instances < <(instances_of "$name" "$mode")
done

case $cmd in
  start)
    # A failed start stops what it launched (its own journal, docs/adr/0016); processes that
    # already ran are left alone.
    TUBER_LAUNCH_LOG=$(mktemp "$TUBER_STATE/app-launched.XXXXXX")
    export TUBER_LAUNCH_LOG
    trap 'rm -f "$TUBER_LAUNCH_LOG"' EXIT
    for name in "${instances[@]}"; do start_one "$name" & done
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
    for name in "${instances[@]}"; do stop_daemon "$name" & done
    wait
    ;;
  restart)
    bash "$0" stop "${names[@]}"
    bash "$0" start "${names[@]}"
    ;;
  status)
    for name in "${instances[@]}"; do
      if is_running "$name"; then state=running; else state=stopped; fi
      printf '%-13s %-8s http://127.0.0.1:%-6s log: %s\n' "$name" "$state" "$(instance_port "$name")" "$TUBER_STATE/logs/$name.log"
    done
    ;;
  *) echo "usage: app.sh start|stop|restart|status [name...] | env SERVICE [REPLICA]" >&2; exit 2 ;;
esac
