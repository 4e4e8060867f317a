#!/usr/bin/env bash
# Stops every local server (data stays under $TUBER_STATE/data).
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
while read -r server; do stop_daemon "$server" & done < "$here/servers.list"
wait
