#!/usr/bin/env bash
# `make bench`: runs every bench/*.bench.ts against the running local servers and prints figures
# as ratios against a baseline measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/local/lib.sh
bash infra/local/status.sh --quiet || bash infra/local/up.sh
export REDIS_URL="redis://127.0.0.1:${REDIS_PORT}"
for bench in bench/*.bench.ts; do
  echo "== $bench"
  npx tsx --conditions=@tuber/source "$bench"
done
