#!/usr/bin/env bash
# `make doctor`: what this machine has for the local run, what is cached, what runs (and whether
# each running server is this checkout's own), and what is missing, with a hint for each.
# Changes nothing. Exits 1 when something needed is missing or a port this checkout needs is
# held by another program; 0 otherwise.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

problems=()
row() { printf '  %-8s %-22s %s\n' "$1" "$2" "$3"; }
have() { row ok "$1" "$2"; }
# missing WHAT HINT [optional]: an optional item is reported but does not fail the check.
missing() {
  if [ "${3:-}" = optional ]; then
    row absent "$1" "$2"
  else
    row MISSING "$1" "$2"
    problems+=("$1: $2")
  fi
}
# The first line a version command prints (stderr too, except a wrapper's own complaints),
# without colour codes, cut to fit a line.
first_line() { "$@" 2>&1 | grep -v '^/' | sed 's/\x1b\[[0-9;]*m//g' | head -n 1 | cut -c1-70; }

# The versions the server scripts build, read from the scripts themselves.
script_var() { sed -n "s/^$2=//p" "$here/$1.sh" | head -n 1; }
FERRETDB_VERSION=$(script_var ferretdb FERRETDB_VERSION)
MINIO_VERSION=$(script_var minio MINIO_VERSION)
MC_VERSION=$(script_var minio MC_VERSION)
MAILPIT_VERSION=$(script_var mailpit MAILPIT_VERSION)
KEYCLOAK_VERSION=$(script_var keycloak KEYCLOAK_VERSION)
JAEGER_VERSION=$(script_var jaeger JAEGER_VERSION)
go_builds=("$TUBER_CACHE/bin/ferretdb-$FERRETDB_VERSION" "$TUBER_CACHE/bin/minio-${MINIO_VERSION##*-}" "$TUBER_CACHE/bin/mc-${MC_VERSION##*-}" "$TUBER_CACHE/bin/mailpit-$MAILPIT_VERSION" "$TUBER_CACHE/bin/jaeger-$JAEGER_VERSION")
kc_home="$TUBER_CACHE/keycloak-$KEYCLOAK_VERSION"
kc_zip="$TUBER_CACHE/downloads/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
all_go_built=1
for bin in "${go_builds[@]}"; do [ -x "$bin" ] || all_go_built=0; done

echo "Tuber Market doctor — checkout $TUBER_ROOT"
echo "  state $TUBER_STATE, cache $TUBER_CACHE"

echo
echo "Programs (Debian packages unless noted; \`make install\` installs what is missing):"
check_cmd() { # NAME COMMAND VERSION-COMMAND... ; hint from $hint
  local name=$1 cmd=$2
  shift 2
  if command -v "$cmd" > /dev/null 2>&1; then have "$name" "$(first_line "$@") ($(command -v "$cmd"))"; else missing "$name" "$hint" "${optional:-}"; fi
}
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -ge 20 ]; then have node "$(node --version) with npm $(npm --version 2>/dev/null)"; else missing node "Node.js 20 or newer with npm (your distribution's nodejs package or nvm); found: $(node --version 2>/dev/null || echo none)"; fi
hint="make install (apt-get install curl)" check_cmd curl curl curl --version
hint="make install (apt-get install nginx)" check_cmd nginx nginx nginx -v
hint="make install (apt-get install gettext-base)" check_cmd envsubst envsubst envsubst --version
hint="make install (apt-get install redis-server redis-tools)" check_cmd redis-server redis-server redis-server --version
hint="make install (apt-get install nats-server)" check_cmd nats-server nats-server nats-server --version
pg=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -n "$pg" ] && [ -x "$pg/postgres" ]; then have postgres "$(first_line "$pg/postgres" --version) ($pg)"; else missing postgres "make install (apt-get install postgresql)"; fi
if [ "$(id -u)" = 0 ]; then
  if id postgres > /dev/null 2>&1; then have "postgres user" "runs PostgreSQL for root (uid $(id -u postgres))"; else missing "postgres user" "make install (the postgresql package creates it)"; fi
  hint="apt-get install util-linux" check_cmd runuser runuser runuser --version
fi
java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
if [ -n "$java_major" ] && [ "$java_major" -ge 17 ]; then have java "$(first_line java -version) ($(command -v java))"; else missing java "Java 17 for Keycloak: make install (apt-get install openjdk-17-jre-headless); found: ${java_major:-none}"; fi
hint="make install (apt-get install chromium); the browser tests need it" check_cmd chromium chromium chromium --version
hint="apt-get install iproute2; without it ports are matched to processes through /proc" optional=optional check_cmd ss ss ss -V
if [ $all_go_built = 1 ]; then optional=optional; else optional=""; fi
hint="Go 1.22 or newer (golang-go package, or the Go tarball in /usr/local/go); builds FerretDB, MinIO, Mailpit and Jaeger once" check_cmd go go go version
optional=""
if [ -f "$kc_zip" ] || [ -f "$kc_home/.tuber-build" ]; then optional=optional; fi
hint="make install (apt-get install maven); downloads Keycloak once" check_cmd maven mvn mvn --version
optional=""

echo
echo "Built and cached in $TUBER_CACHE (shared by every checkout of this user):"
for bin in "${go_builds[@]}"; do
  name=$(basename "$bin")
  if [ -x "$bin" ]; then have "${name%%-*}" "$bin"; else missing "${name%%-*}" "make install (builds $name from the Go module proxy, a few minutes)"; fi
done
if [ -f "$kc_home/.tuber-build" ]; then
  have keycloak "$kc_home (built)"
elif [ -d "$kc_home" ]; then
  missing keycloak "$kc_home is there but not built: make install"
else
  missing keycloak "make install (downloads Keycloak $KEYCLOAK_VERSION from Maven Central and builds it, about a minute)"
fi
[ -f "$kc_zip" ] && have "keycloak zip" "$kc_zip" || row absent "keycloak zip" "(only needed to rebuild Keycloak)"
for entry in "$TUBER_CACHE"/*; do
  [ -e "$entry" ] && row cached "$(basename "$entry")" "$(du -sh "$entry" 2>/dev/null | cut -f1) in $entry"
done
stamp="$TUBER_ROOT/node_modules/.tuber-lock-hash"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(sha256sum "$TUBER_ROOT/package-lock.json" | cut -d' ' -f1)" ]; then
  have node_modules "matches package-lock.json"
elif [ -d "$TUBER_ROOT/node_modules" ]; then
  missing node_modules "older than package-lock.json: make deps"
else
  missing node_modules "make deps (npm install from the lockfile)"
fi
unbuilt=()
for service in auth profile catalog media nutrition orders moderation; do [ -f "$TUBER_ROOT/services/$service/dist/server.js" ] || unbuilt+=("services/$service"); done
# The shell's build has its page; a remote's production build has no page, only its manifest (app.sh).
[ -f "$TUBER_ROOT/frontends/shell/dist/index.html" ] || unbuilt+=("frontends/shell")
for frontend in landing buyer farmer moderation; do [ -f "$TUBER_ROOT/frontends/$frontend/dist/mf-manifest.json" ] || unbuilt+=("frontends/$frontend"); done
if [ ${#unbuilt[@]} = 0 ]; then have build "every service and front end is built"; else row absent build "not built: ${unbuilt[*]} (make build; make up and make test do it)"; fi

echo
echo "Servers (this checkout's own are reused; anything else on a port is reported, never used):"
# Two settings naming one port cannot both work.
declare -A port_var=()
while read -r var; do
  port=${!var:-}
  [ -n "$port" ] || continue
  if [ -n "${port_var[$port]:-}" ]; then
    row CLASH "$var" "port $port is also ${port_var[$port]} (.env / .env.example)"
    problems+=("$var and ${port_var[$port]} are both $port: give each its own port in .env")
  else
    port_var[$port]=$var
  fi
done < <(compgen -v | grep -E '^[A-Z_]+_PORT$' | grep -v '^TUBER_')
conflicts=0
daemons=(postgres ferretdb nats redis redis-readmodel minio mailpit sms-catcher keycloak jaeger gateway-spans gateway auth profile catalog media nutrition orders moderation shell landing buyer farmer moderation-ui)
for name in "${daemons[@]}"; do
  ports=""
  for var in $(ports_of "$name"); do ports+="${ports:+, }$var ${!var}"; done
  if is_running "$name"; then
    row running "$name" "this checkout's, pid $(pid_of "$name"); $ports"
    continue
  fi
  foreign=""
  for var in $(ports_of "$name"); do
    for holder in $(port_holders "${!var}"); do foreign+="${foreign:+; }$var ${!var} held by $(describe_pid "$holder")"; done
  done
  if [ -n "$foreign" ]; then
    row FOREIGN "$name" "$foreign — not this checkout's: stop it, or give this checkout other ports in .env"
    problems+=("$name: $foreign")
    conflicts=1
  else
    row stopped "$name" "$ports free"
  fi
done
if [ "$(id -u)" = 0 ]; then
  where=$(bash "$here/postgres.sh" where)
  if [ -d "$TUBER_STATE/data/postgres" ] && [ ! -L "$TUBER_STATE/data/postgres" ]; then
    row ok "postgres data" "$TUBER_STATE/data/postgres (earlier layout: postgres.sh moves it to $where/data on its next start)"
  elif [ -f "$where/data/PG_VERSION" ]; then have "postgres data" "$where/data (linked from $TUBER_STATE/data/postgres)"; else row absent "postgres data" "$where/data is made on the first start"; fi
  # Clusters whose checkout (state directory) is gone.
  for owner in "${TUBER_PG_ROOT:-/var/lib/tuber}"/*/owner; do
    [ -f "$owner" ] || continue
    state=$(cat "$owner")
    [ -d "$state" ] || row stale "postgres data" "$(dirname "$owner") belonged to $state, which is gone: rm -rf $(dirname "$owner")"
  done
fi

echo
if [ ${#problems[@]} = 0 ]; then
  echo "Nothing needed is missing."
  exit 0
fi
echo "To fix (${#problems[@]}):"
printf '  - %s\n' "${problems[@]}"
[ $conflicts = 0 ] || echo "Ports and PUBLIC_URL come from .env.example and .env; a second checkout needs its own in its .env."
exit 1
