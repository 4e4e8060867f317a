#!/usr/bin/env bash
# Shared helpers for the local (Docker-free) run. Source it; it loads .env.example then .env
# (variables already in the environment win) and provides:
#   log MSG                       – message on stderr
#   is_running NAME               – the daemon NAME is alive (pid file + signal 0)
#   start_daemon NAME CMD...      – run CMD in its own session, log to $TUBER_STATE/logs/NAME.log
#   stop_daemon NAME              – TERM the daemon's process group, KILL after 20 s
#   wait_port PORT NAME [SECS]    – wait until 127.0.0.1:PORT accepts connections
#   wait_http URL NAME [SECS]     – wait until URL answers 2xx/3xx
#   ensure_secret NAME [BYTES]    – print a generated secret, creating it on first use
#   apt_ensure CMD PKG...         – install Debian packages when CMD is missing
set -euo pipefail

TUBER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TUBER_ROOT

load_env_file() {
  local file=$1 line key value
  [ -f "$file" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] || continue
    key=${BASH_REMATCH[1]}
    value=${BASH_REMATCH[2]}
    [ -n "${!key+x}" ] && continue
    value=${value//\$\{HOME\}/$HOME}
    export "$key=$value"
  done < "$file"
}
# .env first so its values win over the defaults; variables set by the caller win over both.
load_env_file "$TUBER_ROOT/.env"
load_env_file "$TUBER_ROOT/.env.example"

TUBER_CACHE=${TUBER_CACHE:-$HOME/.cache/tuber}
case $TUBER_STATE in /*) ;; *) TUBER_STATE=$TUBER_ROOT/${TUBER_STATE#./} ;; esac
export TUBER_CACHE TUBER_STATE
mkdir -p "$TUBER_CACHE/bin" "$TUBER_CACHE/downloads" "$TUBER_CACHE/src" \
  "$TUBER_STATE/data" "$TUBER_STATE/logs" "$TUBER_STATE/pids" "$TUBER_STATE/secrets"
chmod 700 "$TUBER_STATE/secrets"

log() { printf '[tuber] %s\n' "$*" >&2; }

pid_of() { cat "$TUBER_STATE/pids/$1.pid" 2>/dev/null || true; }

is_running() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

start_daemon() {
  local name=$1
  shift
  if is_running "$name"; then return 0; fi
  local logfile="$TUBER_STATE/logs/$name.log"
  printf '\n=== %s start %s\n' "$(date -u +%FT%TZ)" "$name" >> "$logfile"
  setsid "$@" >> "$logfile" 2>&1 < /dev/null &
  echo $! > "$TUBER_STATE/pids/$name.pid"
}

stop_daemon() {
  local name=$1 pid i
  pid=$(pid_of "$name")
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$TUBER_STATE/pids/$name.pid"
    return 0
  fi
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop in 20 s; killing it"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$TUBER_STATE/pids/$name.pid"
}

wait_port() {
  local port=$1 name=$2 secs=${3:-60} i
  for i in $(seq 1 $((secs * 5))); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    if ! is_running "$name"; then break; fi
    sleep 0.2
  done
  log "$name is not listening on port $port; last lines of $TUBER_STATE/logs/$name.log:"
  tail -n 20 "$TUBER_STATE/logs/$name.log" >&2 || true
  return 1
}

wait_http() {
  local url=$1 name=$2 secs=${3:-60} i
  for i in $(seq 1 $((secs * 4))); do
    if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then return 0; fi
    if ! is_running "$name"; then break; fi
    sleep 0.25
  done
  log "$name did not answer $url; last lines of $TUBER_STATE/logs/$name.log:"
  tail -n 20 "$TUBER_STATE/logs/$name.log" >&2 || true
  return 1
}

ensure_secret() {
  local file="$TUBER_STATE/secrets/$1" bytes=${2:-24}
  if [ ! -s "$file" ]; then
    (umask 077 && head -c "$bytes" /dev/urandom | base64 | tr -d '/+=\n' > "$file")
  fi
  cat "$file"
}

_apt_updated=0
apt_ensure() {
  local cmd=$1
  shift
  command -v "$cmd" >/dev/null 2>&1 && return 0
  log "installing Debian packages: $*"
  if [ $_apt_updated = 0 ]; then apt-get update -qq; _apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# A server script defines install_server and start_server (which waits for readiness), and
# optionally stop_server, then
# ends with `server_main NAME "$@"` to get the subcommands install | start | stop | status.
server_main() {
  local name=$1
  case ${2:-status} in
    install) install_server ;;
    # (no && chains here: bash would ignore errexit inside the functions)
    start) install_server; start_server ;;
    stop) if declare -F stop_server >/dev/null; then stop_server; else stop_daemon "$name"; fi ;;
    restart) bash "$0" stop; install_server; start_server ;;
    status) if is_running "$name"; then echo "$name: running (pid $(pid_of "$name"))"; else echo "$name: stopped"; return 1; fi ;;
    *) echo "usage: $(basename "$0") install|start|stop|restart|status" >&2; return 2 ;;
  esac
}
