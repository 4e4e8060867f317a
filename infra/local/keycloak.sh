#!/usr/bin/env bash
# Keycloak's server distribution from Maven Central on the machine's JDK 17 (docs/adr/0003),
# built once with our build options, started optimized under /auth with the tuber realm imported;
# the generated secrets (auth client, test user) are then set through the admin REST API.
source "$(dirname "$0")/lib.sh"
KEYCLOAK_VERSION=26.0.8
home="$TUBER_CACHE/keycloak-$KEYCLOAK_VERSION"
BUILD_OPTS=(--db=dev-file --health-enabled=true --http-relative-path=/auth)
realm_file="$TUBER_ROOT/infra/keycloak/tuber-realm.json"
state="$TUBER_STATE/data/keycloak"

java_home() {
  local candidate
  for candidate in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk-arm64 /usr/lib/jvm/temurin-21-jdk-amd64; do
    [ -x "$candidate/bin/java" ] && { echo "$candidate"; return; }
  done
  dirname "$(dirname "$(readlink -f "$(command -v java)")")"
}

install_server() {
  local stamp="$home/.tuber-build" want
  want=$(printf '%s ' "${BUILD_OPTS[@]}" | sha256sum | cut -c1-16)
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
  local zip="$TUBER_CACHE/downloads/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
  if [ ! -f "$zip" ]; then
    log "downloading Keycloak $KEYCLOAK_VERSION from Maven Central (once)"
    command -v mvn >/dev/null || apt_ensure mvn maven
    mvn -q dependency:copy "-Dartifact=org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" "-DoutputDirectory=$TUBER_CACHE/downloads"
  fi
  command -v unzip >/dev/null || apt_ensure unzip unzip
  rm -rf "$home" "$home.tmp" && mkdir -p "$home.tmp"
  unzip -q "$zip" -d "$home.tmp" && mv "$home.tmp/keycloak-$KEYCLOAK_VERSION" "$home" && rmdir "$home.tmp"
  log "building Keycloak (once; about a minute)"
  if ! JAVA_HOME=$(java_home) "$home/bin/kc.sh" build "${BUILD_OPTS[@]}" >> "$TUBER_STATE/logs/keycloak.log" 2>&1; then
    log "Keycloak build failed; see $TUBER_STATE/logs/keycloak.log"
    return 1
  fi
  echo "$want" > "$stamp"
}

# Bump when the way the local database is set up changes: the database is then made afresh once.
DB_LAYOUT=2 # 2: bootstrap admin service account for the admin REST API

start_server() {
  mkdir -p "$state" "$home/data/import"
  # The realm is imported when Keycloak's database has none; when the realm file changes, the
  # local database is started afresh so the change takes effect (it holds only local test data).
  local realm_hash
  realm_hash=$( { cat "$realm_file"; echo "layout $DB_LAYOUT"; } | sha256sum | cut -c1-16)
  if [ "$(cat "$state/realm-hash" 2>/dev/null)" != "$realm_hash" ]; then
    [ -d "$state/h2" ] && log "realm file changed: starting Keycloak's local database afresh"
    stop_daemon keycloak
    rm -rf "$state/h2" "$state/secrets-applied"
    echo "$realm_hash" > "$state/realm-hash"
  fi
  cp "$realm_file" "$home/data/import/tuber-realm.json"
  rm -rf "$home/themes/tuber" && cp -r "$TUBER_ROOT/infra/keycloak/themes/tuber" "$home/themes/tuber"
  local auth_secret test_password admin_client_secret
  auth_secret=$(ensure_secret keycloak-auth-client-secret 32)
  test_password=$(ensure_secret keycloak-test-user-password 18)
  admin_client_secret=$(ensure_secret keycloak-admin-client-secret 32)
  # The import fills the realm file's ${...} placeholders from this environment (compose does the
  # same); keycloak-secrets.mjs then checks them through the admin REST API (see sync_secrets).
  TUBER_AUTH_CLIENT_SECRET=$auth_secret TUBER_TEST_USER_PASSWORD=$test_password \
  TUBER_PUBLIC_URL=$PUBLIC_URL TUBER_SMTP_HOST=127.0.0.1 TUBER_SMTP_PORT=$MAILPIT_SMTP_PORT \
  KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=$(ensure_secret keycloak-admin-password 24) \
  KC_BOOTSTRAP_ADMIN_CLIENT_ID=tuber-local-admin KC_BOOTSTRAP_ADMIN_CLIENT_SECRET=$admin_client_secret \
  JAVA_HOME=$(java_home) JAVA_OPTS_KC_HEAP="-Xms64m -Xmx512m" \
    start_daemon keycloak "$home/bin/kc.sh" start --optimized \
      --cache=local --http-enabled=true --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
      --http-management-port="$KEYCLOAK_MGMT_PORT" \
      --hostname="$PUBLIC_URL/auth" --hostname-backchannel-dynamic=true --proxy-headers=xforwarded \
      --db-url="jdbc:h2:file:$state/h2/keycloakdb;NON_KEYWORDS=VALUE" \
      --import-realm --log-level=warn,org.keycloak.services:info
  wait_http "http://127.0.0.1:${KEYCLOAK_MGMT_PORT}/auth/health/ready" keycloak 180
  sync_secrets "$auth_secret" "$test_password" "$admin_client_secret"
}

# Makes the tuber-auth client's secret and the test user's password those in $TUBER_STATE/secrets,
# through the admin REST API: once after each import, and again whenever a secret file changed
# (e.g. .run/secrets was deleted while Keycloak's database was kept).
sync_secrets() {
  local want
  want=$(printf '%s\n' "$@" "$(cat "$state/realm-hash")" | sha256sum | cut -c1-16)
  [ "$(cat "$state/secrets-applied" 2>/dev/null)" = "$want" ] && return 0
  if ! KC_URL="http://127.0.0.1:${KEYCLOAK_PORT}/auth" KC_REALM="$KEYCLOAK_REALM" \
    KC_ADMIN_CLIENT_ID=tuber-local-admin KC_ADMIN_CLIENT_SECRET=$3 \
    AUTH_CLIENT_SECRET=$1 TEST_USER=test.farmer@tuber.local TEST_USER_PASSWORD=$2 \
    node "$TUBER_ROOT/infra/local/keycloak-secrets.mjs" >> "$TUBER_STATE/logs/keycloak.log" 2>&1; then
    log "could not set Keycloak's secrets through the admin API; see $TUBER_STATE/logs/keycloak.log"
    return 1
  fi
  echo "$want" > "$state/secrets-applied"
}

server_main keycloak "$@"
