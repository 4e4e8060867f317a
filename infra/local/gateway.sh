#!/usr/bin/env bash
# nginx (Debian package) as the gateway on :8080, rendered from infra/gateway/default.conf.template.
source "$(dirname "$0")/lib.sh"
conf_dir="$TUBER_STATE/nginx"

install_server() {
  apt_ensure nginx nginx
  apt_ensure envsubst gettext-base
}

# nginx started by root runs its workers as an unprivileged user, and they write request bodies
# (uploads are buffered) and large answers to temp files: under a private home (mode 700) they cannot
# enter $TUBER_STATE, so root keeps the temp files in a directory of their own under /var/lib/tuber,
# like PostgreSQL's cluster (docs/adr/0016). Anyone else runs nginx as themselves, inside $TUBER_STATE.
worker_user=""
temp_dir="$conf_dir/temp"
if [ "$(id -u)" = 0 ]; then
  worker_user=nobody
  id www-data > /dev/null 2>&1 && worker_user=www-data
  temp_dir="${TUBER_PG_ROOT:-/var/lib/tuber}/gateway-$(printf '%s' "$TUBER_STATE" | sha256sum | cut -c1-16)"
fi

prepare_temp() {
  mkdir -p "$temp_dir"
  [ -n "$worker_user" ] || return 0
  chmod 755 "$(dirname "$temp_dir")"
  printf '%s\n' "$TUBER_STATE" > "$temp_dir/owner"
  chown -R "$worker_user" "$temp_dir" && chmod 700 "$temp_dir"
}

# ---- service replicas (docs/adr/0039) ----
# REPLICAS=N (environment or .env, default 1; app.sh starts the same number): in each service's
# upstream group (tuber_auth ... tuber_moderation) the one `server 127.0.0.1:PORT ...;` line of the
# template becomes N lines, replica i on PORT + 100*i (app.sh's numbering), same parameters.
REPLICAS=${REPLICAS:-1}
replicate_upstreams() {
  [[ $REPLICAS =~ ^[1-9]$ ]] || { log "REPLICAS must be a whole number from 1 to 9 (it is '$REPLICAS')"; return 1; }
  awk -v n="$REPLICAS" '
    /^[[:space:]]*upstream tuber_(auth|profile|catalog|media|nutrition|orders|moderation)[[:space:]]*\{/ { inside = 1 }
    inside && /^[[:space:]]*}/ { inside = 0 }
    inside && match($0, /server 127\.0\.0\.1:[0-9]+/) {
      head = substr($0, 1, RSTART - 1); port = substr($0, RSTART + 17, RLENGTH - 17); tail = substr($0, RSTART + RLENGTH)
      for (i = 0; i < n; i++) print head "server 127.0.0.1:" (port + 100 * i) tail
      next
    }
    { print }'
}

# The gateway config (default.conf) as rendered for this checkout, on stdout.
render_conf() {
  # Locally the gateway listens on loopback only (in compose the template gets a bare port).
  local GATEWAY_PORT="127.0.0.1:$GATEWAY_PORT"
  export GATEWAY_PORT SHELL_UPSTREAM="127.0.0.1:$SHELL_PORT" LANDING_UPSTREAM="127.0.0.1:$LANDING_PORT" \
    BUYER_UPSTREAM="127.0.0.1:$BUYER_PORT" FARMER_UPSTREAM="127.0.0.1:$FARMER_PORT" \
    MODERATION_UI_UPSTREAM="127.0.0.1:$MODERATION_UI_PORT" \
    AUTH_UPSTREAM="127.0.0.1:$AUTH_PORT" PROFILE_UPSTREAM="127.0.0.1:$PROFILE_PORT" \
    CATALOG_UPSTREAM="127.0.0.1:$CATALOG_PORT" MEDIA_UPSTREAM="127.0.0.1:$MEDIA_PORT" \
    NUTRITION_UPSTREAM="127.0.0.1:$NUTRITION_PORT" ORDERS_UPSTREAM="127.0.0.1:$ORDERS_PORT" \
    MODERATION_UPSTREAM="127.0.0.1:$MODERATION_PORT" KEYCLOAK_UPSTREAM="127.0.0.1:$KEYCLOAK_PORT" \
    MINIO_UPSTREAM="127.0.0.1:$MINIO_PORT" RELEASES_ROOT="$TUBER_RELEASES"
  # The span relay's syslog address (docs/adr/0038), started with Jaeger by jaeger.sh.
  export GATEWAY_SPANS_ADDR="127.0.0.1:$GATEWAY_SPANS_PORT"
  # Live unread streams at most (docs/adr/0067): two connections each, under worker_connections below.
  export GATEWAY_MAX_STREAMS="${GATEWAY_MAX_STREAMS:-1500}"
  # Only our variables are substituted; nginx's own $variables stay as they are.
  # shellcheck disable=SC2016
  envsubst '${GATEWAY_PORT} ${SHELL_UPSTREAM} ${LANDING_UPSTREAM} ${BUYER_UPSTREAM} ${FARMER_UPSTREAM} ${MODERATION_UI_UPSTREAM} ${AUTH_UPSTREAM} ${PROFILE_UPSTREAM} ${CATALOG_UPSTREAM} ${MEDIA_UPSTREAM} ${NUTRITION_UPSTREAM} ${ORDERS_UPSTREAM} ${MODERATION_UPSTREAM} ${KEYCLOAK_UPSTREAM} ${MINIO_UPSTREAM} ${GATEWAY_SPANS_ADDR} ${GATEWAY_MAX_STREAMS} ${RELEASES_ROOT}' \
    < "$TUBER_ROOT/infra/gateway/default.conf.template" | replicate_upstreams
}

# The release store (lib.sh): readable by nginx's workers, written only by infra/release/remote.ts.
prepare_releases() {
  mkdir -p "$TUBER_RELEASES"
  # Once a remote has been released the store's remotes.json is what the shell reads: a remote added since
  # (the moderation desk) goes into it at its unversioned prefix, as every remote was before its first release.
  if [ -f "$TUBER_RELEASES/remotes.json" ]; then
    (cd "$TUBER_ROOT" && npx tsx infra/release/remote.ts sync) || log "could not bring $TUBER_RELEASES/remotes.json up to date (npx tsx infra/release/remote.ts sync)"
  fi
  [ -n "$worker_user" ] || return 0
  chmod 755 "$(dirname "$TUBER_RELEASES")" "$TUBER_RELEASES"
  printf '%s\n' "$TUBER_STATE" > "$TUBER_RELEASES/.owner"
}

render() {
  mkdir -p "$conf_dir"
  prepare_temp
  prepare_releases
  local conf
  conf=$(render_conf)
  printf '%s\n' "$conf" > "$conf_dir/default.conf"
  cat > "$conf_dir/nginx.conf" <<CONF
${worker_user:+user $worker_user;}
worker_processes 1;
daemon off;
pid $conf_dir/nginx.pid;
error_log $TUBER_STATE/logs/gateway.log warn;
worker_rlimit_nofile 8192;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log $TUBER_STATE/logs/gateway-access.log;
  sendfile on;
  client_body_temp_path $temp_dir/body;
  proxy_temp_path $temp_dir/proxy;
  fastcgi_temp_path $temp_dir/fastcgi;
  uwsgi_temp_path $temp_dir/uwsgi;
  scgi_temp_path $temp_dir/scgi;
  include $conf_dir/default.conf;
}
CONF
  if ! nginx -t -q -c "$conf_dir/nginx.conf" -p "$conf_dir"; then
    log "the rendered gateway config is invalid: $conf_dir/default.conf"
    return 1
  fi
}

start_server() {
  render
  # Already running: apply a changed template without dropping connections.
  if is_running gateway; then kill -HUP "$(pid_of gateway)"; fi
  start_daemon gateway nginx -c "$conf_dir/nginx.conf" -p "$conf_dir"
  wait_ready http "$GATEWAY_PORT" gateway 20
}

# `gateway.sh print`: the rendered default.conf on stdout, nothing written or started (tests read it).
if [ "${1:-}" = print ]; then render_conf; exit; fi
server_main gateway "$@"
