#!/usr/bin/env bash
# The NATS command-line client (`nats`), built once from the Go module proxy into the cache, for
# the benchmarks (`nats bench`, bench/events.bench.ts). Prints the binary's path.
#   bash infra/local/nats-cli.sh            # builds if missing, prints the path
source "$(dirname "$0")/lib.sh"
NATS_CLI_VERSION=v0.5.1
bin="$TUBER_CACHE/bin/nats-$NATS_CLI_VERSION"
if [ ! -x "$bin" ]; then
  command -v go >/dev/null || { log "Go is required to build the nats command-line client"; exit 1; }
  log "building the nats command-line client $NATS_CLI_VERSION (once, a few minutes; cached in $TUBER_CACHE)"
  gobin=$(mktemp -d)
  GOBIN=$gobin go install -trimpath "github.com/nats-io/natscli/nats@$NATS_CLI_VERSION" >&2
  mv "$gobin/nats" "$bin" && rmdir "$gobin"
fi
echo "$bin"
