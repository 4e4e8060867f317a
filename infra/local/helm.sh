#!/usr/bin/env bash
# The Helm chart's checks without a cluster (docs/adr/0036, docs/kubernetes.md).
#   bash infra/local/helm.sh install   Helm built from the Go module proxy, and the Kubernetes schema
#                                      validator in a Python venv, both cached in $TUBER_CACHE
#                                      (a no-op in about a second when cached)
#   bash infra/local/helm.sh check     helm lint; helm template for both value sets; every rendered
#                                      manifest validated against the Kubernetes schemas; the policy
#                                      check (infra/helm/policy.py). Exits non-zero on any failure.
#   bash infra/local/helm.sh policy FILE...    only the policy check, on rendered manifests
#   bash infra/local/helm.sh validate FILE...  only the schema validation, on rendered manifests
# HELM_CHECK_KEEP=DIR keeps the rendered manifests of `check` in DIR; HELM_CHECK_KUBE_VERSIONS
# overrides the Kubernetes versions validated against.
# `check` prints one line per step (test/infra/helm.test.ts reads them):
#   lint: <value set> ok|FAILED          (value sets: defaults = the chart's values.yaml, production)
#   rendered: <value set> <N> manifests
#   validation: <N> manifests, <K> Kubernetes versions (<versions>, strict), <E> errors
#   policy: <N> containers, <V> violations
#   helm check: passed|FAILED
source "$(dirname "$0")/lib.sh"
HELM_VERSION=v3.22.0
# Helm's own Makefile sets the Kubernetes version it assumes from its client-go (v0.37 -> 1.37).
HELM_KUBE_MINOR=37
KUBERNETES_VALIDATE_VERSION=1.37.0
helm_bin="$TUBER_CACHE/bin/helm-$HELM_VERSION"
venv="$TUBER_CACHE/venv/kubernetes-validate-$KUBERNETES_VALIDATE_VERSION"
chart="$TUBER_ROOT/infra/helm/tuber"
value_sets=("$TUBER_ROOT/infra/helm/tuber/values.yaml" "$TUBER_ROOT/infra/helm/ci/values-production.yaml")
# The Kubernetes versions every manifest is validated against (kubernetes-validate ships their
# schemas): the oldest the chart supports (Chart.yaml kubeVersion) and the newest the validator knows.
KUBE_VERSIONS=${HELM_CHECK_KUBE_VERSIONS:-1.27.0,1.37.0}

install_helm() {
  [ -x "$helm_bin" ] && return 0
  command -v go >/dev/null || { log "Go is required to build Helm"; return 1; }
  log "building Helm $HELM_VERSION (once; cached in $TUBER_CACHE)"
  local dir src="$TUBER_CACHE/src/helm"
  # Built inside the module (as FerretDB is): its go.mod pins every dependency.
  dir=$(cd /tmp && go mod download -json "helm.sh/helm/v3@$HELM_VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  [ -n "$dir" ] || { log "could not fetch helm.sh/helm/v3@$HELM_VERSION from the Go module proxy"; return 1; }
  rm -rf "$src" && cp -r "$dir" "$src" && chmod -R u+w "$src"
  local ldflags="-w -s -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
  ldflags+=" -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$HELM_KUBE_MINOR"
  ldflags+=" -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$HELM_KUBE_MINOR"
  # At low priority, so a machine in use stays responsive while it builds.
  (cd "$src" && CGO_ENABLED=0 nice -n 10 go build -trimpath -ldflags "$ldflags" -o "$helm_bin.tmp" ./cmd/helm)
  mv "$helm_bin.tmp" "$helm_bin"
  rm -rf "$src"
}

install_validator() {
  [ -x "$venv/bin/kubernetes-validate" ] && return 0
  log "installing kubernetes-validate $KUBERNETES_VALIDATE_VERSION into $venv (once)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
}

cmd_install() {
  install_helm
  install_validator
}

# The name a value set is reported by: values.yaml is "defaults", values-NAME.yaml is "NAME".
set_name() { local base; base=$(basename "$1" .yaml); [ "$base" = values ] && echo defaults || echo "${base#values-}"; }

cmd_policy() { "$venv/bin/python" "$TUBER_ROOT/infra/helm/policy.py" "$@"; }

cmd_check() {
  cmd_install
  local out failed=0 set name file count rendered=()
  out=$(mktemp -d "${TMPDIR:-/tmp}/tuber-helm.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$out'" EXIT
  "$helm_bin" version --short | sed 's/^/helm: /'
  for set in "${value_sets[@]}"; do
    name=$(set_name "$set")
    if "$helm_bin" lint "$chart" --strict -f "$set" > "$out/lint-$name.log" 2>&1; then
      echo "lint: $name ok"
    else
      echo "lint: $name FAILED"; sed 's/^/  /' "$out/lint-$name.log"; failed=1
    fi
    file="$out/$name.yaml"
    if "$helm_bin" template tuber "$chart" --namespace tuber -f "$set" > "$file" 2> "$out/template-$name.log"; then
      count=$("$venv/bin/python" -c 'import sys, yaml; print(sum(1 for d in yaml.safe_load_all(open(sys.argv[1])) if d))' "$file")
      echo "rendered: $name $count manifests"
      rendered+=("$file")
    else
      echo "rendered: $name FAILED"; sed 's/^/  /' "$out/template-$name.log"; failed=1
    fi
  done
  if [ ${#rendered[@]} -gt 0 ]; then
    "$venv/bin/python" "$TUBER_ROOT/infra/helm/validate.py" --versions "$KUBE_VERSIONS" "${rendered[@]}" || failed=1
    cmd_policy "${rendered[@]}" || failed=1
  fi
  if [ -n "${HELM_CHECK_KEEP:-}" ] && [ ${#rendered[@]} -gt 0 ]; then
    mkdir -p "$HELM_CHECK_KEEP" && cp "${rendered[@]}" "$HELM_CHECK_KEEP/" && echo "kept: $HELM_CHECK_KEEP"
  fi
  if [ $failed = 0 ]; then echo "helm check: passed"; else echo "helm check: FAILED"; fi
  return $failed
}

main() {
  case ${1:-} in
    install) cmd_install ;;
    check) cmd_check ;;
    policy) shift; cmd_install; cmd_policy "$@" ;;
    validate) shift; cmd_install; "$venv/bin/python" "$TUBER_ROOT/infra/helm/validate.py" --versions "$KUBE_VERSIONS" "$@" ;;
    *) echo "usage: $(basename "$0") install|check|policy FILE...|validate FILE..." >&2; return 2 ;;
  esac
}
main "$@"
