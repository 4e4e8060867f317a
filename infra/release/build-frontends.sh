#!/usr/bin/env bash
# Builds the front ends of one commit from git history, once: a detached worktree, its own npm install
# from that commit's lockfile, the production builds. The dist folders are kept by commit under
# $TUBER_CACHE/releases/<commit>/<name>/ and the worktree is removed. Prints that folder.
# Used by the version-skew test (test/skew/) and by `make release-remote` for a commit that is not HEAD.
#   build-frontends.sh <commit> [name...]     names (folders under frontends/): shell landing buyer farmer moderation
#                                             (default: those of the five the commit has)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../local/lib.sh
source "$root/infra/local/lib.sh"

commit=$(git -C "$root" rev-parse --verify "${1:?usage: build-frontends.sh <commit> [name...]}^{commit}")
shift
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for name in shell landing buyer farmer moderation; do
    git -C "$root" cat-file -e "$commit:frontends/$name/package.json" 2>/dev/null && names+=("$name")
  done
fi
out="$TUBER_CACHE/releases/$commit"

missing=()
for name in "${names[@]}"; do [ -f "$out/$name/.built" ] || missing+=("$name"); done
if [ ${#missing[@]} -eq 0 ]; then echo "$out"; exit 0; fi

mkdir -p "$TUBER_CACHE/releases"
work=$(mktemp -d "$TUBER_CACHE/releases/.build-${commit:0:12}.XXXXXX")
cleanup() { git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
started=$(date +%s)
echo "building ${missing[*]} of ${commit:0:12} (cached in $out)…" >&2
git -C "$root" worktree add --detach --quiet "$work/tree" "$commit"
cd "$work/tree"
# As npm-deps.sh does (npm ci refuses a lockfile without other platforms' optional builds): exactly the
# locked versions, from npm's own cache when it has them.
npm install --no-audit --no-fund --loglevel=error --prefer-offline >&2
workspaces=()
for name in "${missing[@]}"; do workspaces+=(--workspace "frontends/$name"); done
npm run build "${workspaces[@]}" >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; echo "the build of ${commit:0:12} failed" >&2; exit 1; }
for name in "${missing[@]}"; do
  rm -rf "${out:?}/$name"
  mkdir -p "$out"
  cp -a "frontends/$name/dist" "$out/$name"
  echo "$commit" > "$out/$name/.built"
done
echo "built ${missing[*]} of ${commit:0:12} in $(( $(date +%s) - started )) s" >&2
echo "$out"
