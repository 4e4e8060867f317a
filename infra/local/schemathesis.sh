#!/usr/bin/env bash
# Schemathesis (the OpenAPI fuzzer the attack suite runs, docs/security.md) from PyPI, installed
# with pip into a virtualenv cached under $TUBER_CACHE (default ~/.cache/tuber) and reused while
# its pinned version matches. No other download.
#   infra/local/schemathesis.sh                 install (once) and print the executable's path
#   infra/local/schemathesis.sh run URL ...     install (once) and run schemathesis with these arguments
set -euo pipefail
SCHEMATHESIS_VERSION=4.32.5
cache=${TUBER_CACHE:-$HOME/.cache/tuber}
[[ $cache == \~/* ]] && cache=$HOME/${cache#\~/}
venv="$cache/venv-schemathesis"
stamp="$venv/.tuber-schemathesis"

python_bin() {
  local candidate
  for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      command -v "$candidate"
      return
    fi
  done
  return 1
}

install() {
  [ -x "$venv/bin/schemathesis" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$SCHEMATHESIS_VERSION" ] && return 0
  local python
  if ! python=$(python_bin) || ! "$python" -c 'import ensurepip' 2>/dev/null; then
    # Debian's python3 has venv and ensurepip in a separate package.
    echo "[tuber] installing python3-venv (Debian) for Schemathesis" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip >&2
    python=$(python_bin) || { echo "[tuber] Schemathesis needs Python 3.10 or newer" >&2; return 1; }
  fi
  echo "[tuber] installing Schemathesis $SCHEMATHESIS_VERSION into $venv (once)" >&2
  # The stamp is written last: an interrupted install is started afresh next time.
  rm -rf "$venv"
  "$python" -m venv "$venv"
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "schemathesis==$SCHEMATHESIS_VERSION" >&2; then
    rm -rf "$venv"
    echo "[tuber] pip could not install schemathesis==$SCHEMATHESIS_VERSION" >&2
    return 1
  fi
  "$venv/bin/schemathesis" --version >&2
  echo "$SCHEMATHESIS_VERSION" > "$stamp"
}

mkdir -p "$cache"
install
if [ $# -eq 0 ]; then
  echo "$venv/bin/schemathesis"
else
  exec "$venv/bin/schemathesis" "$@"
fi
