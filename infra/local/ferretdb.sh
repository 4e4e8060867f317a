#!/usr/bin/env bash
# FerretDB 1.x — the MongoDB wire protocol on PostgreSQL (docs/adr/0002), built from the Go module proxy.
source "$(dirname "$0")/lib.sh"
FERRETDB_VERSION=v1.24.0
bin="$TUBER_CACHE/bin/ferretdb-$FERRETDB_VERSION"

install_server() {
  bash "$(dirname "$0")/postgres.sh" install
  [ -x "$bin" ] && return 0
  log "building FerretDB $FERRETDB_VERSION (once; cached in $TUBER_CACHE)"
  # `go install` is refused by the module proxy's version list here, so build inside the module.
  local dir
  dir=$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  rm -rf "$TUBER_CACHE/src/ferretdb" && cp -r "$dir" "$TUBER_CACHE/src/ferretdb" && chmod -R u+w "$TUBER_CACHE/src/ferretdb"
  # The release version is normally generated from git; the module zip has no git, so write it.
  echo "$FERRETDB_VERSION" > "$TUBER_CACHE/src/ferretdb/build/version/version.txt"
  (cd "$TUBER_CACHE/src/ferretdb" && go build -trimpath -o "$bin" ./cmd/ferretdb)
}

start_server() {
  mkdir -p "$TUBER_STATE/data/ferretdb"
  bash "$(dirname "$0")/postgres.sh" start
  start_daemon ferretdb "$bin" \
    --listen-addr="127.0.0.1:${MONGO_PORT}" \
    --handler=postgresql --postgresql-url="postgres://ferretdb@127.0.0.1:${POSTGRES_PORT:-5433}/ferretdb" \
    --state-dir="$TUBER_STATE/data/ferretdb" \
    --debug-addr=- --telemetry=disable --log-level=WARN
  wait_port "$MONGO_PORT" ferretdb 60
}

# FerretDB and its PostgreSQL go down and come up together.
stop_server() {
  stop_daemon ferretdb
  bash "$(dirname "$0")/postgres.sh" stop
}

server_main ferretdb "$@"
