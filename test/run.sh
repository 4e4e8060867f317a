#!/usr/bin/env bash
# `make test`: starts the servers once, runs every vitest project (unit, integration, browser),
# and stops only what it started. TUBER_INFRA=auto|local|containers picks the servers:
# containers when a Docker engine answers (auto) — the compose file's infrastructure services
# with their ports published, started through testcontainers (test/support/containers.ts,
# docs/adr/0028) — and the locally installed servers otherwise.
# Locally, this checkout's servers that already run are reused and left running; up.sh lists
# every daemon it launches in a journal, and exactly those are stopped at the end — or at once
# when a start fails, so a failed run leaves nothing of its own behind (docs/adr/0016).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=../infra/local/lib.sh
source infra/local/lib.sh

mode=${TUBER_INFRA:-auto}
if [ "$mode" = auto ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then mode=containers; else mode=local; fi
fi
echo "test infrastructure: $mode"

started_infra=0
started_app=()
launched=$(mktemp "$TUBER_STATE/test-launched.XXXXXX")
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  if [ ${#started_app[@]} -gt 0 ]; then bash infra/local/app.sh stop "${started_app[@]}" || true; fi
  if [ "$mode" = containers ]; then
    if [ $started_infra = 1 ]; then
      bash infra/local/gateway.sh stop || true
    fi
    # The containers entry takes them down with their volumes when told to stop.
    if [ -n "${containers_pid:-}" ]; then
      kill -TERM "$containers_pid" 2>/dev/null || true
      wait "$containers_pid" || true
    fi
  elif [ -s "$launched" ]; then
    echo "stopping the servers this run started: $(tac "$launched" | tr '\n' ' ')"
    stop_launched "$launched" || true
  fi
  rm -f "$launched"
  exit $code
}
trap cleanup EXIT INT TERM

if [ "$mode" = containers ]; then
  # Infrastructure in containers on the local ports; the gateway stays local so it can reach the
  # services and front ends that app.sh runs on this machine. Every server asks for credentials
  # (docs/adr/0017): the compose file's secrets, plus the tests' own users, come from secrets.sh.
  set -a
  eval "$(bash infra/compose/secrets.sh --test)"
  MONGO_AUTH_MECHANISM=SCRAM-SHA-256
  set +a
  containers_ready="$TUBER_STATE/test-containers.ready"
  rm -f "$containers_ready"
  MINIO_ROOT_USER=$(ensure_secret minio-root-user 9) MINIO_ROOT_PASSWORD=$(ensure_secret minio-root-password 30) \
  KEYCLOAK_ADMIN_PASSWORD=$(ensure_secret keycloak-admin-password 24) \
  KEYCLOAK_AUTH_CLIENT_SECRET=$(ensure_secret keycloak-auth-client-secret 32) \
  KEYCLOAK_OPS_CLIENT_SECRET=$(ensure_secret keycloak-ops-client-secret 32) \
  KEYCLOAK_BOOTSTRAP_SECRET=$(ensure_secret keycloak-bootstrap-secret 32) \
    node --import tsx test/support/containers.ts --ready-file "$containers_ready" &
  containers_pid=$!
  # Up once every server's health check passes and the one-shot set-up containers succeeded; the
  # entry stays in the background until cleanup stops it (it then takes the containers down).
  until [ -e "$containers_ready" ]; do
    if ! kill -0 "$containers_pid" 2>/dev/null; then
      wait "$containers_pid" || true
      containers_pid=
      echo "the test infrastructure did not start in containers (see above)" >&2
      exit 1
    fi
    sleep 1
  done
  bash infra/local/gateway.sh start
  started_infra=1
else
  # Reuses this checkout's running servers, starts the others; fails on a port held by anything
  # else (naming it), having stopped whatever it launched.
  # CI (nothing of this checkout runs yet) first proves the starts: TUBER_RESTART_CHECK rounds (3) of
  # stopping and starting every server, each judged by the servers' own answers (issue 24,
  # docs/adr/0058), the last one left running for the tests. ~20 s a round warm.
  # Only when none of this checkout's servers runs: a round starts with stopping them all, and this
  # script promises to leave running what it did not start.
  rounds=${TUBER_RESTART_CHECK:-$([ -n "${CI:-}" ] && echo 3 || echo 0)}
  while read -r server; do
    if [ -n "$server" ] && is_running "$server"; then rounds=0; fi
  done < infra/local/servers.list
  if [ "$rounds" -gt 0 ]; then
    echo "== starts: $rounds rounds of stopping and starting the servers"
    TUBER_LAUNCH_LOG=$launched bash infra/local/restarts.sh "$rounds"
  else
    TUBER_LAUNCH_LOG=$launched bash infra/local/up.sh
  fi
fi

# The product's own processes must run the build just made: restart the running ones (they are
# left running afterwards) and start the others (stopped again at the end).
for name in auth profile catalog media nutrition orders moderation shell landing buyer farmer moderation-ui; do
  if ! is_running "$name"; then started_app+=("$name"); fi
done
bash infra/local/app.sh restart

# Tests reach NATS, Redis and MongoDB as their own `tuber-test` users (test/support/env.ts).
export PUBLIC_URL
export MINIO_ACCESS_KEY MINIO_SECRET_KEY KEYCLOAK_AUTH_CLIENT_SECRET
KEYCLOAK_AUTH_CLIENT_SECRET=$(cat "$TUBER_STATE/secrets/keycloak-auth-client-secret" 2>/dev/null || true)
MINIO_ACCESS_KEY=$(cat "$TUBER_STATE/secrets/minio-root-user" 2>/dev/null || true)
MINIO_SECRET_KEY=$(cat "$TUBER_STATE/secrets/minio-root-password" 2>/dev/null || true)

mkdir -p test-artifacts
echo "== lint"
npx eslint . || { echo "lint failed: see above"; exit 1; }
# The projects run one after another: integration tests stop and start servers, which must never
# happen under a browser test. Inside a project, files that share servers run one at a time.
status=0
# The fault scenarios (chaos) come last: they kill and pause servers; each puts back what it broke.
read -r -a projects <<< "${TEST_PROJECTS:-unit integration browser security chaos}" # `make security`: TEST_PROJECTS=security
for project in "${projects[@]}"; do
  echo "== vitest project: $project"
  filters=()
  # CI runs the short form of the scenarios quick enough for it (docs/reliability.md): R1 (~45 s),
  # R3, R6 (~35 s), R7 (~50 s) and R8 (~110 s: it switches the stack to 3 NATS nodes and 2 replicas
  # and back, so it runs last); `make chaos` runs every scenario at full size.
  if [ "$project" = chaos ] && [ $# -eq 0 ]; then read -r -a filters <<< "${CHAOS_CI_FILES:-test/chaos/r1- test/chaos/r3- test/chaos/r6- test/chaos/r7- test/chaos/r8-}"; fi
  CHAOS_SCALE=${CHAOS_SCALE:-short} npx vitest run --project "$project" --reporter=default --reporter=json \
    --outputFile.json="test-artifacts/vitest-$project.json" "$@" "${filters[@]}" || status=1
done
# One plain closing line over all projects: "N passed, N failed, N skipped".
node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  const failures = [];
  for (const project of process.argv.slice(1)) {
    const file = `test-artifacts/vitest-${project}.json`;
    if (!fs.existsSync(file)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + r.numTodoTests;
    // The failures are named again here, next to the count, so that the last lines of a long run
    // (all a CI page may keep) say which tests failed and where.
    for (const suite of r.testResults ?? []) {
      for (const test of suite.assertionResults ?? []) {
        const first = (test.failureMessages ?? [])[0];
        // A test that passed with a failure on record passed on its second try (vitest retry).
        if (test.status !== "failed" && !(test.status === "passed" && first)) continue;
        const where = suite.name.replace(process.cwd() + "/", "");
        const why = String(first ?? "").split("\n")[0].slice(0, 160);
        const what = test.status === "failed" ? "FAILED" : "passed on retry";
        failures.push(`${what} [${project}] ${where} > ${test.fullName}\n    ${why}`);
      }
    }
  }
  for (const line of failures) console.log(line);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
' "${projects[@]}" || true
exit $status
