#!/usr/bin/env bash
# Starts the local servers (every one in servers.list, or only those named: `up.sh redis nats`) in
# parallel, each waiting for its own readiness, and prints where they are.
# This checkout's servers that already run are reused; a port held by anything else fails the
# start (lib.sh names the holder). When a server fails, the others stop waiting, everything THIS
# start launched is stopped again (servers that were running before are left alone), and the
# failing server is named with the end of its output and log. An interrupted start (INT, TERM)
# stops what it launched the same way.
# TUBER_LAUNCH_LOG=FILE: also append the name of every daemon launched to FILE and leave it there
# on success, so the caller can stop exactly those later (test/run.sh does).
source "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
started=$SECONDS

mapfile -t known < "$here/servers.list"
if [ $# -gt 0 ]; then servers=("$@"); else servers=("${known[@]}"); fi
for server in "${servers[@]}"; do
  [[ " ${known[*]} " == *" $server "* ]] || { log "unknown server: $server (known: ${known[*]})"; exit 2; }
done

work=$(mktemp -d "$TUBER_STATE/start.XXXXXX")
journal=${TUBER_LAUNCH_LOG:-$work/launched}
touch "$journal"
export TUBER_LAUNCH_LOG=$journal TUBER_ABORT=$work/abort

declare -A server_of=()
for server in "${servers[@]}"; do
  # Each start's output goes to the console, prefixed, and to a file for the closing report.
  (
    set +e
    bash "$here/$server.sh" start 2>&1 | tee "$work/$server.out" | sed -u "s/^/[$server] /" >&2
    exit "${PIPESTATUS[0]}"
  ) &
  server_of[$!]=$server
done

failed=()
interrupted=0
trap 'interrupted=1; touch "$TUBER_ABORT"' INT TERM
while [ ${#server_of[@]} -gt 0 ]; do
  done_pid=""
  code=0
  wait -n -p done_pid "${!server_of[@]}" || code=$?
  [ -n "${done_pid:-}" ] || continue # interrupted by a signal: wait again
  server=${server_of[$done_pid]}
  unset "server_of[$done_pid]"
  [ $code = 0 ] && continue
  # A server that only gave up because another one failed is not a cause.
  grep -q 'stopped waiting: this start is called off' "$work/$server.out" 2>/dev/null || failed+=("$server")
  touch "$TUBER_ABORT"
done

if [ ${#failed[@]} -gt 0 ] || [ $interrupted = 1 ]; then
  for server in "${failed[@]}"; do
    log "$server failed to start. Its last words:"
    grep -v '^$' "$work/$server.out" | tail -n 25 | sed 's/^/    /' >&2
  done
  launched=$(tac "$journal" | tr '\n' ' ')
  if [ -n "$launched" ]; then
    log "stopping what this start launched: $launched"
    stop_launched "$journal"
  fi
  [ $interrupted = 1 ] && log "interrupted"
  [ ${#failed[@]} -gt 0 ] && log "could not start: ${failed[*]} (logs in $TUBER_STATE/logs/)"
  rm -rf "$work"
  exit 1
fi
rm -rf "$work"
log "servers up in $((SECONDS - started)) s"
bash "$here/status.sh" "${servers[@]}" || true
