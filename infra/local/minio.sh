#!/usr/bin/env bash
# MinIO built from the Go module proxy; bucket product-images created and made publicly readable
# object by object (infra/minio/public-read.json). The media service signs in as its own user
# `media`, limited to that bucket by infra/minio/media-policy.json (docs/adr/0017); the root user
# is for set-up and tests only. Users and policies are made with MinIO's client `mc`, built from the
# Go module proxy as well. Secrets: $TUBER_STATE/secrets/minio-root-{user,password}, minio-media-password.
source "$(dirname "$0")/lib.sh"
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
MC_VERSION=v0.0.0-20250313080218-cf909e1063a9
bin="$TUBER_CACHE/bin/minio-${MINIO_VERSION##*-}"
mc_bin="$TUBER_CACHE/bin/mc-${MC_VERSION##*-}"

# go install PACKAGE@VERSION into the cache as TARGET (once).
go_build() {
  local package=$1 version=$2 target=$3 gobin
  [ -x "$target" ] && return 0
  log "building $package $version (once, a few minutes; cached in $TUBER_CACHE)"
  gobin=$(mktemp -d)
  GOBIN=$gobin go install -trimpath "$package@$version"
  mv "$gobin/$(basename "$package")" "$target" && rmdir "$gobin"
}

install_server() {
  go_build github.com/minio/minio "$MINIO_VERSION" "$bin"
  go_build github.com/minio/mc "$MC_VERSION" "$mc_bin"
}

# mc against our server as root; its configuration stays under $TUBER_STATE.
mc_root() {
  MC_CONFIG_DIR="$TUBER_STATE/conf/mc" MC_HOST_tuber="http://$1:$2@127.0.0.1:${MINIO_PORT}" "$mc_bin" --quiet --no-color "${@:3}"
}

# The media user and its policy: same password every start, policy re-applied (it may have changed).
provision_media_user() {
  local user=$1 password=$2 policy
  policy=$(mktemp)
  sed "s/product-images/${MINIO_BUCKET}/g" "$TUBER_ROOT/infra/minio/media-policy.json" > "$policy"
  mc_root "$user" "$password" admin policy create tuber tuber-media "$policy" >/dev/null
  rm -f "$policy"
  # The secret on stdin (mc reads it there when not given), never in a process list.
  ensure_secret minio-media-password 30 | mc_root "$user" "$password" admin user add tuber media >/dev/null
  if ! mc_root "$user" "$password" admin user info tuber media --json | grep '"policyName": *"tuber-media"' > /dev/null; then
    mc_root "$user" "$password" admin policy attach tuber tuber-media --user media >/dev/null
  fi
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
  provision_media_user "$user" "$password"
}

server_main minio "$@"
