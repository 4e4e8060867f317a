#!/usr/bin/env bash
# Starts every local server (in parallel, each waiting for its own readiness) and prints where.
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
started=$(date +%s)
mapfile -t servers < "$here/servers.list"
pids=()
for server in "${servers[@]}"; do
  bash "$here/$server.sh" start & pids+=($!)
done
failed=()
for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${servers[$i]}"); done
if [ ${#failed[@]} -gt 0 ]; then
  log "could not start: ${failed[*]} (logs in $TUBER_STATE/logs/)"
  exit 1
fi
log "servers up in $(( $(date +%s) - started )) s"
bash "$here/status.sh"
