#!/usr/bin/env bash
# nginx (Debian package) as the gateway on :8080, rendered from infra/gateway/default.conf.template.
source "$(dirname "$0")/lib.sh"
conf_dir="$TUBER_STATE/nginx"

install_server() {
  apt_ensure nginx nginx
  apt_ensure envsubst gettext-base
}

render() {
  mkdir -p "$conf_dir/temp"
  # Locally the gateway listens on loopback only (in compose the template gets a bare port).
  local GATEWAY_PORT="127.0.0.1:$GATEWAY_PORT"
  export GATEWAY_PORT SHELL_UPSTREAM="127.0.0.1:$SHELL_PORT" LANDING_UPSTREAM="127.0.0.1:$LANDING_PORT" \
    BUYER_UPSTREAM="127.0.0.1:$BUYER_PORT" FARMER_UPSTREAM="127.0.0.1:$FARMER_PORT" \
    AUTH_UPSTREAM="127.0.0.1:$AUTH_PORT" PROFILE_UPSTREAM="127.0.0.1:$PROFILE_PORT" \
    CATALOG_UPSTREAM="127.0.0.1:$CATALOG_PORT" MEDIA_UPSTREAM="127.0.0.1:$MEDIA_PORT" \
    NUTRITION_UPSTREAM="127.0.0.1:$NUTRITION_PORT" KEYCLOAK_UPSTREAM="127.0.0.1:$KEYCLOAK_PORT" \
    MINIO_UPSTREAM="127.0.0.1:$MINIO_PORT"
  # Only our variables are substituted; nginx's own $variables stay as they are.
  # shellcheck disable=SC2016
  envsubst '${GATEWAY_PORT} ${SHELL_UPSTREAM} ${LANDING_UPSTREAM} ${BUYER_UPSTREAM} ${FARMER_UPSTREAM} ${AUTH_UPSTREAM} ${PROFILE_UPSTREAM} ${CATALOG_UPSTREAM} ${MEDIA_UPSTREAM} ${NUTRITION_UPSTREAM} ${KEYCLOAK_UPSTREAM} ${MINIO_UPSTREAM}' \
    < "$TUBER_ROOT/infra/gateway/default.conf.template" > "$conf_dir/default.conf"
  cat > "$conf_dir/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $conf_dir/nginx.pid;
error_log $TUBER_STATE/logs/gateway.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log $TUBER_STATE/logs/gateway-access.log;
  sendfile on;
  client_body_temp_path $conf_dir/temp/body;
  proxy_temp_path $conf_dir/temp/proxy;
  fastcgi_temp_path $conf_dir/temp/fastcgi;
  uwsgi_temp_path $conf_dir/temp/uwsgi;
  scgi_temp_path $conf_dir/temp/scgi;
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
  wait_port "$GATEWAY_PORT" gateway 20
}

server_main gateway "$@"
