#!/usr/bin/env bash
# make seed-market: a year of the market through the running local stack's real API (infra/seed/market.ts,
# docs/adr/0072). Needs `make up` first. WEEKS, FARMERS, BUYERS, SALES and SEED tune it (see market.ts).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source infra/local/lib.sh
for name in gateway keycloak catalog orders profile media; do
  is_running "$name" || { log "$name is not running: make up first"; exit 1; }
done
export PUBLIC_URL KEYCLOAK_PORT TUBER_STATE
export KEYCLOAK_AUTH_CLIENT_SECRET=$(cat "$TUBER_STATE/secrets/keycloak-auth-client-secret")
export SIMULATED_CLOCK_FILE=${SIMULATED_CLOCK_FILE:-$TUBER_STATE/simulated-clock.json}
exec npx tsx infra/seed/market.ts
