#!/usr/bin/env bash
# Stops every local server, in parallel (data stays under $TUBER_STATE/data). Each server's own
# `stop` runs, so helpers go down with their server (FerretDB takes its PostgreSQL along).
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
pids=()
while read -r server; do
  bash "$here/$server.sh" stop & pids+=($!)
done < "$here/servers.list"
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
