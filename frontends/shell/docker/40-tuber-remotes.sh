#!/bin/sh
# Runs from the nginx image's /docker-entrypoint.d/ before nginx starts. When SHELL_REMOTES is set it
# replaces the built-in remotes.json, so a remote moves without rebuilding the shell. Two forms:
#   SHELL_REMOTES='[{"name":"landing","entry":"/mf/landing/mf-manifest.json"}]'      (JSON, written as is)
#   SHELL_REMOTES='landing=/mf/landing/mf-manifest.json,buyer=https://cdn.example.com/buyer/mf-manifest.json'
set -eu
target=${SHELL_REMOTES_FILE:-/usr/share/nginx/html/remotes.json}
[ -n "${SHELL_REMOTES:-}" ] || exit 0

case "$SHELL_REMOTES" in
  \[*)
    printf '%s\n' "$SHELL_REMOTES" > "$target"
    ;;
  *)
    json='['
    separator=''
    for pair in $(printf '%s' "$SHELL_REMOTES" | tr ',' ' '); do
      name=${pair%%=*}
      entry=${pair#*=}
      case "$name" in
        '' | [0-9]* | *[!A-Za-z0-9_]*) echo "$0: bad remote name '$name' in SHELL_REMOTES" >&2; exit 1 ;;
      esac
      case "$entry" in
        '' | "$pair" | *\"* | *\\*) echo "$0: bad entry for '$name' in SHELL_REMOTES (want name=url)" >&2; exit 1 ;;
      esac
      json="$json$separator{\"name\":\"$name\",\"entry\":\"$entry\"}"
      separator=','
    done
    printf '%s]\n' "$json" > "$target"
    ;;
esac
echo "$0: wrote $target from SHELL_REMOTES"
