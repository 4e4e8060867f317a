#!/usr/bin/env bash
# PostgreSQL (Debian package) as FerretDB's backend (docs/adr/0002): our own cluster per checkout,
# on loopback only. PostgreSQL refuses to run as root, so root runs it as the postgres user, which
# cannot enter a checkout under a private home (mode 700): the cluster and its socket then live in
# /var/lib/tuber/<hash of $TUBER_STATE>/ (owned by postgres), and $TUBER_STATE/data/postgres is a
# link to it (docs/adr/0016; TUBER_PG_ROOT overrides /var/lib/tuber). Anyone else runs it as
# themselves, inside $TUBER_STATE.
#   postgres.sh install|start|stop|restart|status|where|purge
# `where` prints the cluster's directory; `purge` stops it and deletes its data.
source "$(dirname "$0")/lib.sh"
PG_PORT=$POSTGRES_PORT
link="$TUBER_STATE/data/postgres"
if [ "$(id -u)" = 0 ]; then
  pg_root=${TUBER_PG_ROOT:-/var/lib/tuber}
  pg_home="$pg_root/$(printf '%s' "$TUBER_STATE" | sha256sum | cut -c1-16)"
  data="$pg_home/data"
  sockets="$pg_home/run"
else
  pg_home=""
  data=$link
  sockets="$TUBER_STATE/run/postgres"
fi

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

install_server() {
  [ -n "$(pg_bin)" ] || apt_ensure /usr/lib/postgresql/15/bin/postgres postgresql
  [ -n "$(pg_bin)" ] || { log "PostgreSQL binaries not found after install"; return 1; }
}

as_postgres() {
  if [ -n "$pg_home" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Root only: the cluster's home under $pg_root, reachable by postgres whatever the checkout's
# parents allow; a cluster left in $link by an earlier layout is moved there once.
prepare_home() {
  [ -n "$pg_home" ] || { mkdir -p "$sockets"; return 0; }
  id postgres > /dev/null 2>&1 || { log "the postgres user is missing (Debian's postgresql package creates it)"; return 1; }
  mkdir -p "$pg_root" && chmod 755 "$pg_root"
  mkdir -p "$pg_home" "$sockets" && chown postgres: "$pg_home" "$sockets" && chmod 700 "$pg_home"
  printf '%s\n' "$TUBER_STATE" > "$pg_home/owner"
  if [ -d "$link" ] && [ ! -L "$link" ]; then
    if [ -f "$link/PG_VERSION" ] && [ ! -e "$data" ]; then
      log "moving the PostgreSQL cluster from $link to $data (docs/adr/0016)"
      mv "$link" "$data" && chown -R postgres: "$data"
    else
      mv "$link" "$link.old-$(date +%s)"
    fi
  fi
  # A cluster here with no link to it in this state directory was made for an earlier checkout at
  # the same path (deleted and cloned again): its passwords are not this checkout's secrets, and
  # FerretDB would be refused. Keep it aside, never delete it, and make a new one.
  if [ ! -e "$link" ] && [ ! -L "$link" ] && [ -f "$data/PG_VERSION" ]; then
    log "a PostgreSQL cluster of an earlier checkout at $TUBER_STATE is in $data; moving it to $data.stale-$(date +%s) and making a new one"
    mv "$data" "$data.stale-$(date +%s)"
  fi
  ln -sfn "$data" "$link"
}

start_server() {
  local bin
  bin=$(pg_bin)
  # The tools run as postgres: run them from a directory postgres may enter.
  if [ -n "$pg_home" ] && [ -d "$pg_home" ]; then cd "$pg_home"; fi
  if ! is_running postgres; then
    prepare_home
    [ -z "$pg_home" ] || cd "$pg_home"
    if [ ! -f "$data/PG_VERSION" ]; then
      mkdir -p "$data" && chmod 700 "$data"
      [ -z "$pg_home" ] || chown postgres: "$data"
      if ! as_postgres "$bin/initdb" -D "$data" -U ferretdb --auth=trust -E UTF8 --no-instructions > "$TUBER_STATE/logs/postgres-init.log" 2>&1; then
        log "initdb failed; last lines of $TUBER_STATE/logs/postgres-init.log:"
        tail -n 20 "$TUBER_STATE/logs/postgres-init.log" | sed 's/^/    /' >&2
        return 1
      fi
    fi
    # runuser keeps our session for stop_daemon; postgres itself refuses to run as root.
    # max_connections: FerretDB keeps a pool of up to 50 connections per user (each service, the
    # tests); at the default 100, a load with a benchmark beside it ran out of slots and the
    # services answered 500 (docs/reliability.md, R1).
    local run=()
    [ -z "$pg_home" ] || run=(runuser -u postgres --)
    start_daemon postgres "${run[@]}" "$bin/postgres" -D "$data" -h 127.0.0.1 -p "$PG_PORT" \
      -k "$sockets" -c shared_buffers=128MB -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off
  fi
  # Ready when PostgreSQL itself says it accepts connections, not when the pid (runuser's) lives.
  wait_until "(pg_isready) on port $PG_PORT" postgres 30 "$PG_PORT" "$bin/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"
  as_postgres "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U ferretdb -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'" | grep 1 > /dev/null \
    || as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U ferretdb ferretdb
}

case ${1:-status} in
  where) echo "${pg_home:-$data}" ;;
  purge)
    stop_daemon postgres
    rm -rf "$link" "${pg_home:-$data}"
    log "PostgreSQL cluster of $TUBER_STATE deleted"
    ;;
  *) server_main postgres "$@" ;;
esac
