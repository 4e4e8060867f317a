#!/usr/bin/env bash
# Redis (Debian package) as our own daemon, data under $TUBER_STATE.
source "$(dirname "$0")/lib.sh"

install_server() { apt_ensure redis-server redis-server redis-tools; }

start_server() {
  mkdir -p "$TUBER_STATE/data/redis"
  start_daemon redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$TUBER_STATE/data/redis" \
    --save 60 1 --appendonly no --daemonize no --protected-mode yes
  wait_port "$REDIS_PORT" redis 30
  for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && return 0; sleep 0.1; done
  log "redis does not answer PING"; return 1
}

server_main redis "$@"
