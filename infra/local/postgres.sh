#!/usr/bin/env bash
# PostgreSQL (Debian package) as FerretDB's backend (docs/adr/0002): our own cluster under
# $TUBER_STATE, on loopback only, run as the unprivileged postgres user.
source "$(dirname "$0")/lib.sh"
PG_PORT=${POSTGRES_PORT:-5433}
data="$TUBER_STATE/data/postgres"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

install_server() {
  [ -n "$(pg_bin)" ] || apt_ensure /usr/lib/postgresql/15/bin/postgres postgresql
  [ -n "$(pg_bin)" ] || { log "PostgreSQL binaries not found after install"; return 1; }
}

as_postgres() { runuser -u postgres -- "$@"; }

start_server() {
  local bin
  bin=$(pg_bin)
  if [ ! -f "$data/PG_VERSION" ]; then
    mkdir -p "$data" && chown postgres "$data" && chmod 700 "$data"
    as_postgres "$bin/initdb" -D "$data" -U ferretdb --auth=trust -E UTF8 --no-instructions > "$TUBER_STATE/logs/postgres-init.log"
  fi
  mkdir -p "$TUBER_STATE/run/postgres" && chown postgres "$TUBER_STATE/run/postgres"
  # runuser keeps our session for stop_daemon; postgres itself refuses to run as root.
  start_daemon postgres runuser -u postgres -- "$bin/postgres" -D "$data" -h 127.0.0.1 -p "$PG_PORT" \
    -k "$TUBER_STATE/run/postgres" -c shared_buffers=128MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off
  wait_port "$PG_PORT" postgres 30
  as_postgres "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U ferretdb -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'" | grep -q 1 \
    || as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U ferretdb ferretdb
}

server_main postgres "$@"
