#!/usr/bin/env bash
# MinIO built from the Go module proxy; bucket product-images created and made publicly readable.
source "$(dirname "$0")/lib.sh"
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
bin="$TUBER_CACHE/bin/minio-${MINIO_VERSION##*-}"

install_server() {
  [ -x "$bin" ] && return 0
  log "building MinIO $MINIO_VERSION (once, a few minutes; cached in $TUBER_CACHE)"
  local gobin
  gobin=$(mktemp -d)
  GOBIN=$gobin go install -trimpath "github.com/minio/minio@$MINIO_VERSION"
  mv "$gobin/minio" "$bin" && rmdir "$gobin"
}

start_server() {
  mkdir -p "$TUBER_STATE/data/minio"
  local user password
  user=$(ensure_secret minio-root-user 9)
  password=$(ensure_secret minio-root-password 30)
  MINIO_ROOT_USER=$user MINIO_ROOT_PASSWORD=$password MINIO_BROWSER=off \
    start_daemon minio "$bin" server "$TUBER_STATE/data/minio" \
      --address "127.0.0.1:${MINIO_PORT}" --console-address "127.0.0.1:${MINIO_CONSOLE_PORT}" --quiet
  wait_http "http://127.0.0.1:${MINIO_PORT}/minio/health/ready" minio 60
  MINIO_ACCESS_KEY=$user MINIO_SECRET_KEY=$password node "$TUBER_ROOT/infra/local/minio-bucket.mjs"
}

server_main minio "$@"
