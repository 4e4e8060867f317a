#!/usr/bin/env bash
# Stops and starts the local servers N times in a row and counts the starts that came up
# (issue 24: "starts that do not lie"). Each round is a whole stop (down.sh) and a whole start
# (up.sh), judged by up.sh's own readiness (every server's answer in its protocol, docs/adr/0058),
# then checked once more from outside: every server answers.
#   restarts.sh [N]            the infrastructure (default 3; CI runs this short form)
#   restarts.sh --whole [N]    `make down && make up`: the infrastructure, the build check and the
#                              product's processes (the closing-note form, 20)
# Exit status 0 only when every round came up. The servers are left running after the last round.
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
whole=0
if [ "${1:-}" = --whole ]; then whole=1; shift; fi
rounds=${1:-3}
up_count=0
failures=()
report="$TUBER_STATE/logs/restarts.log"
printf '=== %s: %s rounds (%s)\n' "$(date -u +%FT%TZ)" "$rounds" "$([ $whole = 1 ] && echo 'make down && make up' || echo 'infrastructure')" >> "$report"

# Every server answers, asked from outside the start that launched it.
all_answer() {
  node "$here/probe.mjs" mongo "$MONGO_PORT" && node "$here/probe.mjs" redis "$REDIS_PORT" \
    && node "$here/probe.mjs" redis "$READMODEL_REDIS_PORT" \
    && node "$here/probe.mjs" nats "$NATS_PORT" && node "$here/probe.mjs" smtp "$MAILPIT_SMTP_PORT" \
    && curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:${SMS_CATCHER_PORT}/healthz" \
    && curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:${MINIO_PORT}/minio/health/ready" \
    && curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:${KEYCLOAK_MGMT_PORT}/auth/health/ready" \
    && node "$here/probe.mjs" http "$GATEWAY_PORT" \
    && { [ $whole = 0 ] || services_ready; }
}

services_ready() {
  local var
  for var in AUTH_PORT PROFILE_PORT CATALOG_PORT MEDIA_PORT NUTRITION_PORT ORDERS_PORT; do
    curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:${!var}/ready" || return 1
  done
}

for round in $(seq 1 "$rounds"); do
  started=$SECONDS
  if [ $whole = 1 ]; then
    (cd "$TUBER_ROOT" && make -s down > /dev/null 2>&1)
    ok=0
    (cd "$TUBER_ROOT" && make -s up > "$TUBER_STATE/logs/restarts-round.log" 2>&1) || ok=$?
  else
    bash "$here/down.sh" > /dev/null 2>&1
    ok=0
    bash "$here/up.sh" > "$TUBER_STATE/logs/restarts-round.log" 2>&1 || ok=$?
  fi
  if [ $ok = 0 ] && all_answer > /dev/null 2>&1; then
    up_count=$((up_count + 1))
    line="round $round: up in $((SECONDS - started)) s"
  else
    failures+=("$round")
    line="round $round: NOT up after $((SECONDS - started)) s; the start said:"
    cp "$TUBER_STATE/logs/restarts-round.log" "$TUBER_STATE/logs/restarts-round-$round-failed.log"
  fi
  log "$line"
  echo "$line" >> "$report"
  if [ $ok != 0 ]; then tail -n 30 "$TUBER_STATE/logs/restarts-round.log" | sed 's/^/    /' | tee -a "$report" >&2; fi
done
log "$up_count of $rounds starts up${failures:+ (failed rounds: ${failures[*]})}; the record: $report"
[ ${#failures[@]} = 0 ]
