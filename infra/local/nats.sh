#!/usr/bin/env bash
# NATS with JetStream (Debian package), our own config and store under $TUBER_STATE.
source "$(dirname "$0")/lib.sh"

install_server() { apt_ensure nats-server nats-server; }

start_server() {
  mkdir -p "$TUBER_STATE/data/nats"
  start_daemon nats nats-server -a 127.0.0.1 -p "$NATS_PORT" -m "$NATS_MONITOR_PORT" -js -sd "$TUBER_STATE/data/nats" -n tuber-local
  wait_http "http://127.0.0.1:${NATS_MONITOR_PORT}/healthz?js-enabled-only=true" nats 30
}

server_main nats "$@"
