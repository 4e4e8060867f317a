#!/usr/bin/env bash
# Stops the local servers (all, or those named), in parallel (data stays: under $TUBER_STATE/data,
# PostgreSQL's where `postgres.sh where` says). Each server's own `stop` runs, so helpers go down
# with their server (FerretDB takes its PostgreSQL along). Only this checkout's own daemons are
# stopped: a pid file naming another program is removed and the program left alone (lib.sh).
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < "$here/servers.list"; fi
pids=()
for server in "${names[@]}"; do
  bash "$here/$server.sh" stop & pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
