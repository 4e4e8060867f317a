#!/usr/bin/env bash
# The catalog's read model's own Redis (docs/adr/0061): the second instance of redis.sh, on
# READMODEL_REDIS_PORT with READMODEL_REDIS_MAXMEMORY, config and data of its own. Same subcommands.
TUBER_REDIS_INSTANCE=readmodel exec bash "$(dirname "$0")/redis.sh" "$@"
