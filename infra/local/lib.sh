#!/usr/bin/env bash
# Shared helpers for the local (Docker-free) run; `source` it from any script under infra/local/
# (server scripts, up/down/status, app.sh). On load it reads .env.example, then .env if present
# (KEY=VALUE lines; a variable already set in the caller's environment wins over both), and
# exports TUBER_ROOT, TUBER_CACHE (downloads and builds, default ~/.cache/tuber) and TUBER_STATE
# (runtime state, default <repo>/.run, always absolute):
#   $TUBER_STATE/data/NAME  $TUBER_STATE/logs/NAME.log  $TUBER_STATE/pids/NAME.pid  $TUBER_STATE/secrets/
# A daemon is this checkout's own when its pid file names a live process whose environment carries
# TUBER_DAEMON=$TUBER_STATE#NAME (set by start_daemon; docs/adr/0016). Nothing else is ever reused
# or stopped: a port held by another program is reported with its pid and command line.
# Functions:
#   log MSG...                    – message on stderr
#   is_running NAME               – true while this checkout's daemon NAME is alive (pid file + identity)
#   ports_of NAME                 – the variables (e.g. REDIS_PORT) naming the ports daemon NAME listens on
#   port_holders PORT             – pids listening on TCP PORT (any address), one a line
#   describe_pid PID              – "pid N (command line)" for messages
#   start_daemon NAME CMD...      – run CMD in its own session (setsid) in the background, output
#                                   appended to logs/NAME.log, pid in pids/NAME.pid; does nothing
#                                   if NAME already runs; fails (saying who holds it) when one of
#                                   NAME's ports is taken. Environment prefixes work:
#                                   `FOO=1 start_daemon NAME CMD...`. When TUBER_LAUNCH_LOG names a
#                                   file, NAME is appended to it once launched (see stop_launched).
#   stop_daemon NAME              – TERM the daemon's process group, wait up to 20 s, then KILL;
#                                   a pid file naming a process that is not ours is only removed
#   stop_launched FILE            – stop_daemon every name in FILE, last launched first, and empty it
#   wait_ready PROTO PORT [NAME] [SECS] [PATH]
#                                 – wait (default 60 s) until the server on 127.0.0.1:PORT answers in
#                                   its protocol (mongo, redis, nats, smtp, http; probe.mjs); with
#                                   NAME, give up early when that daemon's process group is gone
#                                   (showing the end of its log) or when the file $TUBER_ABORT
#                                   exists, and fail when the listener is not NAME's own process.
#                                   Readiness is the server's answer, never a pid (docs/adr/0058)
#   wait_until WHAT NAME SECS PORT CMD...
#                                 – the same, with CMD as the probe (e.g. pg_isready)
#   wait_http URL [NAME] [SECS]   – the same, until URL answers 2xx/3xx
#   wait_port PORT [NAME] [SECS]  – the same, until PORT accepts a TCP connection
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

POSTGRES_PORT=${POSTGRES_PORT:-5433}
# The orders service (issue 12) came after many a checkout's .env was written: its port has a default here too.
ORDERS_PORT=${ORDERS_PORT:-4006}
# So did the moderation service (trust and safety), and its desk, the fourth remote (daemon moderation-ui).
MODERATION_PORT=${MODERATION_PORT:-4007}
MODERATION_UI_PORT=${MODERATION_UI_PORT:-3004}
export POSTGRES_PORT ORDERS_PORT MODERATION_PORT MODERATION_UI_PORT
# The trace store and the gateway's span relay (docs/adr/0038) came after many a .env too.
JAEGER_UI_PORT=${JAEGER_UI_PORT:-16686}
JAEGER_GRPC_PORT=${JAEGER_GRPC_PORT:-16685}
OTLP_GRPC_PORT=${OTLP_GRPC_PORT:-4317}
OTLP_HTTP_PORT=${OTLP_HTTP_PORT:-4318}
GATEWAY_SPANS_PORT=${GATEWAY_SPANS_PORT:-4320}
export JAEGER_UI_PORT JAEGER_GRPC_PORT OTLP_GRPC_PORT OTLP_HTTP_PORT GATEWAY_SPANS_PORT
# The catalog's read model's own Redis (docs/adr/0061) came after many a .env too: next to REDIS_PORT
# unless set, so that a second checkout with its own ports in .env gets its own here as well.
READMODEL_REDIS_PORT=${READMODEL_REDIS_PORT:-$((${REDIS_PORT:-6379} + 1))}
READMODEL_REDIS_MAXMEMORY=${READMODEL_REDIS_MAXMEMORY:-512mb}
export READMODEL_REDIS_PORT READMODEL_REDIS_MAXMEMORY
# The SMS catcher (infra/sms-catcher, the SMS provider's API for local runs and tests) came after many a .env too.
SMS_CATCHER_PORT=${SMS_CATCHER_PORT:-8026}
export SMS_CATCHER_PORT
TUBER_CACHE=${TUBER_CACHE:-$HOME/.cache/tuber}
TUBER_STATE=${TUBER_STATE:-.run}
[[ $TUBER_CACHE == \~/* ]] && TUBER_CACHE=$HOME/${TUBER_CACHE#\~/}
case $TUBER_CACHE in /*) ;; *) TUBER_CACHE=$TUBER_ROOT/${TUBER_CACHE#./} ;; esac
case $TUBER_STATE in /*) ;; *) TUBER_STATE=$TUBER_ROOT/${TUBER_STATE#./} ;; esac
export TUBER_CACHE TUBER_STATE
mkdir -p "$TUBER_CACHE/bin" "$TUBER_CACHE/downloads" "$TUBER_CACHE/src" \
  "$TUBER_STATE/data" "$TUBER_STATE/logs" "$TUBER_STATE/pids" "$TUBER_STATE/secrets" "$TUBER_STATE/conf"
chmod 700 "$TUBER_STATE/secrets"

# The release store of the front ends (docs/delivery.md): immutable remote builds under <name>/<version>/ and
# the live pointer remotes.json, read by the gateway's nginx. Root runs nginx's workers as an unprivileged user
# that cannot enter a private home (mode 700), so root keeps the store under /var/lib/tuber, like the gateway's
# temp files (docs/adr/0016). TUBER_RELEASES overrides.
if [ -z "${TUBER_RELEASES:-}" ]; then
  if [ "$(id -u)" = 0 ]; then
    TUBER_RELEASES="${TUBER_PG_ROOT:-/var/lib/tuber}/releases-$(printf '%s' "$TUBER_STATE" | sha256sum | cut -c1-16)"
  else
    TUBER_RELEASES="$TUBER_STATE/releases"
  fi
fi
export TUBER_RELEASES

log() { printf '[tuber] %s\n' "$*" >&2; }

pid_of() { cat "$TUBER_STATE/pids/$1.pid" 2>/dev/null || true; }

# The variables holding the ports each daemon listens on (infrastructure and app.sh's processes).
declare -gA _tuber_ports=(
  [postgres]=POSTGRES_PORT [ferretdb]=MONGO_PORT [nats]="NATS_PORT NATS_MONITOR_PORT" [redis]=REDIS_PORT
  [redis-readmodel]=READMODEL_REDIS_PORT
  [minio]="MINIO_PORT MINIO_CONSOLE_PORT" [mailpit]="MAILPIT_SMTP_PORT MAILPIT_HTTP_PORT"
  [sms-catcher]=SMS_CATCHER_PORT
  [keycloak]="KEYCLOAK_PORT KEYCLOAK_MGMT_PORT" [gateway]=GATEWAY_PORT
  [auth]=AUTH_PORT [profile]=PROFILE_PORT [catalog]=CATALOG_PORT [media]=MEDIA_PORT [nutrition]=NUTRITION_PORT
  [orders]=ORDERS_PORT [moderation]=MODERATION_PORT
  [jaeger]="JAEGER_UI_PORT JAEGER_GRPC_PORT OTLP_GRPC_PORT OTLP_HTTP_PORT" [gateway-spans]=GATEWAY_SPANS_PORT
  [shell]=SHELL_PORT [landing]=LANDING_PORT [buyer]=BUYER_PORT [farmer]=FARMER_PORT [moderation-ui]=MODERATION_UI_PORT
)
ports_of() { echo "${_tuber_ports[$1]:-}"; }

# The identity every daemon of this checkout carries in its environment (inherited by its children).
daemon_tag() { printf '%s#%s' "$TUBER_STATE" "$1"; }

_environ_tag() { { tr '\0' '\n' 2> /dev/null < "/proc/$1/environ" || true; } | sed -n 's/^TUBER_DAEMON=//p' | head -n 1; }

describe_pid() {
  local cmd
  cmd=$(tr '\0' ' ' 2> /dev/null < "/proc/$1/cmdline" | cut -c1-160) || true
  printf 'pid %s (%s)' "$1" "${cmd% }"
}

# True when live process PID is this checkout's daemon NAME. Daemons started before the tag
# existed are recognised by this checkout's paths in their command line, or a working directory
# inside $TUBER_STATE (redis-server renames itself and moves into its data directory).
is_ours() {
  local name=$1 pid=$2 tag cmd cwd
  [ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
  tag=$(_environ_tag "$pid")
  # `return $?`, not a bare `return`: called from a trap (test/run.sh's clean-up on EXIT), a bare
  # return gives the status from before the trap, and every daemon looked like someone else's.
  if [ -n "$tag" ]; then [ "$tag" = "$(daemon_tag "$name")" ]; return $?; fi
  cmd=$(tr '\0' ' ' 2> /dev/null < "/proc/$pid/cmdline") || return 1
  case "$cmd" in *"$TUBER_STATE/"* | *"$TUBER_ROOT/"*) return 0 ;; esac
  cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null)/ || true
  case "$cwd" in "$TUBER_STATE/"*) return 0 ;; esac
  return 1
}

is_running() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && is_ours "$1" "$pid"
}

# Listening TCP sockets on PORT (IPv4 and IPv6, any address) -> owning pids.
port_holders() {
  local port=$1
  if command -v ss >/dev/null 2>&1; then
    ss -Hltnp "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -un
    return 0
  fi
  # Without ss: the socket inodes from /proc/net/tcp*, then the processes holding them.
  local hex inodes pid fd
  hex=$(printf '%04X' "$port")
  inodes=$(awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $10 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null | sort -u)
  [ -n "$inodes" ] || return 0
  for fd in /proc/[0-9]*/fd/*; do
    case " $(echo $inodes) " in *" $(readlink "$fd" 2>/dev/null | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p') "*) ;; *) continue ;; esac
    pid=${fd#/proc/}
    echo "${pid%%/*}"
  done | sort -un
}

# True when something listens on PORT (even if its owner cannot be seen).
port_busy() {
  if command -v ss >/dev/null 2>&1; then [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; return $?; fi
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when PID is LEADER or one of its descendants.
_descends_from() {
  local pid=$1 leader=$2 hops=0
  while [ -n "$pid" ] && [ "$pid" -gt 1 ] && [ $hops -lt 64 ]; do
    [ "$pid" = "$leader" ] && return 0
    pid=$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
    hops=$((hops + 1))
  done
  return 1
}

# True when PID, alive and not a zombie, still listens on PORT half a second later.
_still_holds() {
  local pid=$1 port=$2
  sleep 0.5
  grep -q '^State:[[:space:]]*[^Z]' "/proc/$pid/status" 2> /dev/null || return 1
  port_holders "$port" | grep -x "$pid" > /dev/null # to the end: no SIGPIPE for the writer under pipefail
}

# Fails, naming the holder, when PORT is held by anything but daemon NAME's own processes.
check_port_owner() {
  local name=$1 port=$2 var=${3:-port} leader holder
  leader=$(pid_of "$name")
  for holder in $(port_holders "$port"); do
    if [ -n "$leader" ] && is_ours "$name" "$leader" && _descends_from "$holder" "$leader"; then continue; fi
    # A process on its way out (e.g. an nginx worker replaced on reload) holds nothing for long.
    _still_holds "$holder" "$port" || continue
    if [ "$(_environ_tag "$holder")" = "$(daemon_tag "$name")" ]; then
      log "$name: $var $port is held by $(describe_pid "$holder"), this checkout's $name, but its pid file is gone;"
      log "$name: stop it (kill -TERM -- -$(ps -o sid= -p "$holder" | tr -d ' ')) and start again."
      return 1
    fi
    log "$name: $var $port is held by $(describe_pid "$holder"), which is not this checkout's $name ($TUBER_ROOT)."
    log "$name: stop that program, or give this checkout its own ports in $TUBER_ROOT/.env (see .env.example)."
    return 1
  done
}

# Before launching NAME: every port of NAME must be free.
_check_ports_free() {
  local name=$1 var port holders
  for var in $(ports_of "$name"); do
    port=${!var:-}
    [ -n "$port" ] || continue
    holders=$(port_holders "$port")
    if [ -n "$holders" ]; then
      check_port_owner "$name" "$port" "$var" || return 1
    elif port_busy "$port"; then
      log "$name: $var $port is in use by a process this user cannot see; $name was not started."
      return 1
    fi
  done
}

start_daemon() {
  local name=$1
  shift
  if is_running "$name"; then return 0; fi
  local stale
  stale=$(pid_of "$name")
  if [ -n "$stale" ]; then
    kill -0 "$stale" 2>/dev/null && log "$name: pid file named $(describe_pid "$stale"), which is not this checkout's; ignoring it"
    rm -f "$TUBER_STATE/pids/$name.pid"
  fi
  _check_ports_free "$name" || return 1
  local logfile="$TUBER_STATE/logs/$name.log"
  printf '\n=== %s start %s\n' "$(date -u +%FT%TZ)" "$name" >> "$logfile"
  local tag
  tag=$(daemon_tag "$name")
  # The daemon keeps only stdin/stdout/stderr: an inherited descriptor (a caller's
  # `flock /tmp/some.lock make up`, a pipe of the caller's caller) would otherwise stay open, and a
  # lock held, for as long as the daemon runs.
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2> /dev/null || true; fi
    done
    TUBER_DAEMON=$tag exec setsid "$@" >> "$logfile" 2>&1 < /dev/null
  ) &
  local pid=$! tries=0
  echo "$pid" > "$TUBER_STATE/pids/$name.pid"
  # Until the new process has exec'd, /proc shows the caller's environment without the tag.
  while [ -z "$(_environ_tag "$pid")" ] && kill -0 "$pid" 2>/dev/null && [ $tries -lt 100 ]; do
    sleep 0.02
    tries=$((tries + 1))
  done
  if [ -n "${TUBER_LAUNCH_LOG:-}" ]; then echo "$name" >> "$TUBER_LAUNCH_LOG"; fi
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
  if ! is_ours "$name" "$pid"; then
    log "$name: pid file named $(describe_pid "$pid"), which is not this checkout's $name (its tag '$(_environ_tag "$pid")', ours '$(daemon_tag "$name")'); left it running"
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

stop_launched() {
  local file=$1 name
  [ -s "$file" ] || return 0
  while read -r name; do
    [ -n "$name" ] && stop_daemon "$name"
  done < <(tac "$file")
  : > "$file"
}

# The lines NAME's log got since its last start (at most N).
log_tail() {
  local file="$TUBER_STATE/logs/$1.log" lines=${2:-20}
  [ -f "$file" ] || return 0
  tac "$file" | sed "/^=== .* start $1\$/q" | tac | grep -v "^=== .* start $1\$" | tail -n "$lines"
}

# Shared by wait_port and wait_http: why NAME is not ready, with the end of its log.
_wait_failed() {
  local what=$1 name=$2 why=$3
  log "${name:-server} $why $what"
  if [ -n "$name" ] && [ -f "$TUBER_STATE/logs/$name.log" ]; then
    log "last lines of $TUBER_STATE/logs/$name.log:"
    log_tail "$name" 20 | sed 's/^/    /' >&2 || true
  fi
  return 1
}

# True while daemon NAME's process group lives (start_daemon runs it under setsid, so its pid is the
# group's). Only for "gave up waiting": readiness itself is the server's own answer, never a pid,
# which may be a wrapper (runuser, setsid) or a server that rewrote the environment naming it.
_daemon_alive() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && _group_alive "$pid"
}

# One readiness check round: 0 ready, 1 not yet, 2 give up (with the reason in _why).
_wait_round() {
  local name=$1
  if [ -n "$name" ] && ! _daemon_alive "$name"; then _why="exited before answering"; return 2; fi
  if [ -n "${TUBER_ABORT:-}" ] && [ -e "$TUBER_ABORT" ]; then
    log "${name:-server}: stopped waiting: this start is called off (another server failed, or it was interrupted)"
    _why=aborted
    return 3
  fi
  return 1
}

# wait_until WHAT NAME SECS PORT CMD...: until CMD succeeds (the server answered in its protocol),
# then PORT must be NAME's own. Gives up when NAME's processes are all gone or SECS pass.
wait_until() {
  local what=$1 name=$2 secs=$3 port=$4 _why="did not answer in $3 s" round
  shift 4
  local deadline=$((SECONDS + secs))
  while [ $SECONDS -le $deadline ]; do
    if "$@" > /dev/null 2>&1; then
      if [ -n "$name" ] && [ -n "$port" ] && ! check_port_owner "$name" "$port"; then return 1; fi
      return 0
    fi
    round=0
    _wait_round "$name" || round=$?
    [ $round = 3 ] && return 1
    [ $round = 2 ] && break
    sleep 0.2
  done
  _wait_failed "$what" "$name" "$_why"
}

_tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_ready PROTOCOL PORT [NAME] [SECS] [PATH]: until the server on PORT answers in PROTOCOL
# (mongo, redis, nats, smtp, http: any status line; probe.mjs).
wait_ready() {
  local protocol=$1 port=$2 name=${3:-} secs=${4:-60} path=${5:-/}
  wait_until "($protocol) on port $port" "$name" "$secs" "$port" node "$TUBER_ROOT/infra/local/probe.mjs" "$protocol" "$port" "$path"
}

# wait_port PORT [NAME] [SECS]: until PORT accepts a TCP connection (for servers with no probe).
wait_port() {
  wait_until "on port $1" "${2:-}" "${3:-60}" "$1" _tcp_open "$1"
}

_http_ok() { curl -fsS -o /dev/null --max-time 2 "$1"; }

# wait_http URL [NAME] [SECS]: until URL answers 2xx (a server's own health route).
wait_http() {
  local url=$1 port
  port=$(sed -E -n 's#^[a-z]+://[^/:]+:([0-9]+).*#\1#p' <<< "$url")
  wait_until "$url" "${2:-}" "${3:-60}" "$port" _http_ok "$url"
}

ensure_secret() {
  local file="$TUBER_STATE/secrets/$1" bytes=${2:-24}
  if [ ! -s "$file" ]; then
    # Always a letter first: nats-server reads a password given by variable reference as a config
    # value, and one starting with a digit is taken for a number and refused (docs/adr/0017).
    (umask 077 && printf 's%s' "$(head -c "$bytes" /dev/urandom | base64 | tr -d '/+=\n')" > "$file")
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
