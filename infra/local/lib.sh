#!/usr/bin/env bash
# Shared helpers for the local (Docker-free) run; `source` it from any script under infra/local/
# (server scripts, up/down/status, app.sh). On load it reads .env.example, then .env if present
# (KEY=VALUE lines; a variable already set in the caller's environment wins over both), and
# exports TUBER_ROOT, TUBER_CACHE (downloads and builds, default ~/.cache/tuber) and TUBER_STATE
# (runtime state, default <repo>/.run, always absolute):
#   $TUBER_STATE/data/NAME  $TUBER_STATE/logs/NAME.log  $TUBER_STATE/pids/NAME.pid  $TUBER_STATE/secrets/
# Functions:
#   log MSG...                    – message on stderr
#   is_running NAME               – true while daemon NAME is alive (pid file + signal 0)
#   start_daemon NAME CMD...      – run CMD in its own session (setsid) in the background, output
#                                   appended to logs/NAME.log, pid in pids/NAME.pid; does nothing
#                                   if NAME already runs. Environment prefixes work:
#                                   `FOO=1 start_daemon NAME CMD...`
#   stop_daemon NAME              – TERM the daemon's process group, wait up to 20 s, then KILL
#   wait_port PORT [NAME] [SECS]  – wait (default 60 s) until 127.0.0.1:PORT accepts connections;
#                                   with NAME, give up early when that daemon dies and show its log
#   wait_http URL [NAME] [SECS]   – same, until URL answers 2xx/3xx
#   ensure_secret NAME [BYTES]    – print secrets/NAME, generating it on first use (mode 600)
#   apt_ensure CMD PKG...         – apt-get install PKG... when CMD is missing (apt-get update once)
#   server_main NAME ARGS...      – the install|start|stop|restart|status dispatcher of server scripts
set -euo pipefail

TUBER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TUBER_ROOT

# Names set by the caller before we read any file: those always win.
declare -gA _tuber_preset=()
while IFS= read -r _name; do _tuber_preset[$_name]=1; done < <(compgen -e)
unset _name

load_env_file() {
  local file=$1 line key value
  [ -f "$file" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*(export[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] || continue
    key=${BASH_REMATCH[2]}
    value=${BASH_REMATCH[3]}
    [ -n "${_tuber_preset[$key]:-}" ] && continue
    value=${value%"${value##*[![:space:]]}"}
    if [[ $value =~ ^\"(.*)\"$ || $value =~ ^\'(.*)\'$ ]]; then value=${BASH_REMATCH[1]}; fi
    value=${value//\$\{HOME\}/$HOME}
    value=${value//\$HOME/$HOME}
    [[ $value == \~/* ]] && value=$HOME/${value#\~/}
    export "$key=$value"
  done < "$file"
}
load_env_file "$TUBER_ROOT/.env.example"
load_env_file "$TUBER_ROOT/.env"

TUBER_CACHE=${TUBER_CACHE:-$HOME/.cache/tuber}
TUBER_STATE=${TUBER_STATE:-.run}
[[ $TUBER_CACHE == \~/* ]] && TUBER_CACHE=$HOME/${TUBER_CACHE#\~/}
case $TUBER_CACHE in /*) ;; *) TUBER_CACHE=$TUBER_ROOT/${TUBER_CACHE#./} ;; esac
case $TUBER_STATE in /*) ;; *) TUBER_STATE=$TUBER_ROOT/${TUBER_STATE#./} ;; esac
export TUBER_CACHE TUBER_STATE
mkdir -p "$TUBER_CACHE/bin" "$TUBER_CACHE/downloads" "$TUBER_CACHE/src" \
  "$TUBER_STATE/data" "$TUBER_STATE/logs" "$TUBER_STATE/pids" "$TUBER_STATE/secrets" "$TUBER_STATE/conf"
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

# True while any process of the group led by PID lives (the daemon or anything it started).
_group_alive() { kill -0 -- "-$1" 2>/dev/null || kill -0 "$1" 2>/dev/null; }

stop_daemon() {
  local name=$1 pid deadline
  pid=$(pid_of "$name")
  if [ -z "$pid" ] || ! _group_alive "$pid"; then
    rm -f "$TUBER_STATE/pids/$name.pid"
    return 0
  fi
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + 20))
  while _group_alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if _group_alive "$pid"; then
    log "$name did not stop in 20 s; killing it"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$TUBER_STATE/pids/$name.pid"
}

# Shared by wait_port and wait_http: NAME's log tail on failure.
_wait_failed() {
  local what=$1 name=$2
  log "${name:-server} did not answer $what in time"
  if [ -n "$name" ] && [ -f "$TUBER_STATE/logs/$name.log" ]; then
    log "last lines of $TUBER_STATE/logs/$name.log:"
    tail -n 20 "$TUBER_STATE/logs/$name.log" >&2 || true
  fi
  return 1
}

wait_port() {
  local port=$1 name=${2:-} secs=${3:-60}
  local deadline=$((SECONDS + secs))
  while [ $SECONDS -le $deadline ]; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    if [ -n "$name" ] && ! is_running "$name"; then break; fi
    sleep 0.2
  done
  _wait_failed "on port $port" "$name"
}

wait_http() {
  local url=$1 name=${2:-} secs=${3:-60}
  local deadline=$((SECONDS + secs))
  while [ $SECONDS -le $deadline ]; do
    if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then return 0; fi
    if [ -n "$name" ] && ! is_running "$name"; then break; fi
    sleep 0.25
  done
  _wait_failed "$url" "$name"
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
  # Server scripts may start in parallel (up.sh): one apt-get at a time.
  exec 9> "${TMPDIR:-/tmp}/tuber-apt.lock"
  flock 9
  if ! command -v "$cmd" >/dev/null 2>&1; then
    log "installing Debian packages: $*"
    if [ $_apt_updated = 0 ]; then apt-get update -qq; _apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  fi
  flock -u 9
  exec 9>&-
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
