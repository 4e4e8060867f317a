"""The chart's policy check (docs/adr/0036), on rendered manifests (YAML files, several documents each).

Every container of every workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, Pod):
  - runs as non-root: runAsNonRoot true (its own or the pod's), and no runAsUser 0;
  - readOnlyRootFilesystem true, allowPrivilegeEscalation false, not privileged, capabilities drop ALL;
  - image named by a tag or digest, never `latest` and never untagged;
  - requests and limits for both cpu and memory;
  - a livenessProbe and a readinessProbe (init containers excepted: they run to completion).
And no secret in a manifest: no Secret object, no env value for a name that holds a secret
(…_PASSWORD, …_SECRET, …_SECRET_KEY, …_APP_KEY, …_API_KEY, …_TOKEN: those come from secretKeyRef), no password
written into a URL (only a $(VAR) reference to a secret-fed variable).

Usage: python policy.py FILE...   prints one line per violation, then
  policy: <containers> containers, <violations> violations
and exits 1 when there is any violation (2 when a file cannot be read).
"""

import re
import sys

import yaml

WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", "Pod"}
SECRET_NAME = re.compile(r"(_PASSWORD|_SECRET|_SECRET_KEY|_APP_KEY|_API_KEY|_TOKEN)$")
URL_PASSWORD = re.compile(r"^[a-z][a-z0-9+.-]*://[^:/@\s]+:([^@\s]*)@", re.IGNORECASE)
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")


def pod_spec(doc):
    kind = doc.get("kind")
    spec = doc.get("spec") or {}
    if kind == "Pod":
        return spec
    if kind == "CronJob":
        return (((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec") or {}
    return (spec.get("template") or {}).get("spec") or {}


def image_problem(image):
    if not image:
        return "has no image"
    if DIGEST.search(image):
        name = image.split("@", 1)[0]
        if name.rsplit("/", 1)[-1].endswith(":latest"):
            return f"image {image} names the tag `latest`"
        return None
    last = image.rsplit("/", 1)[-1]
    if ":" not in last:
        return f"image {image} has no tag or digest (it would mean `latest`)"
    if last.rsplit(":", 1)[1] == "latest":
        return f"image {image} uses the tag `latest`"
    return None


def container_problems(container, pod, init):
    problems = []
    pod_sc = pod.get("securityContext") or {}
    sc = container.get("securityContext") or {}
    non_root = sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot"))
    user = sc.get("runAsUser", pod_sc.get("runAsUser"))
    if non_root is not True:
        problems.append("may run as root (runAsNonRoot is not true)")
    if user == 0:
        problems.append("runs as root (runAsUser 0)")
    if sc.get("readOnlyRootFilesystem") is not True:
        problems.append("root filesystem is writable (readOnlyRootFilesystem is not true)")
    if sc.get("allowPrivilegeEscalation") is not False:
        problems.append("may gain privileges (allowPrivilegeEscalation is not false)")
    if sc.get("privileged") is True:
        problems.append("is privileged")
    if "ALL" not in ((sc.get("capabilities") or {}).get("drop") or []):
        problems.append("keeps Linux capabilities (capabilities.drop lacks ALL)")
    problem = image_problem(container.get("image"))
    if problem:
        problems.append(problem)
    resources = container.get("resources") or {}
    for part in ("requests", "limits"):
        for resource in ("cpu", "memory"):
            if not (resources.get(part) or {}).get(resource):
                problems.append(f"has no {part}.{resource}")
    if not init:
        for probe in ("livenessProbe", "readinessProbe"):
            if not container.get(probe):
                problems.append(f"has no {probe}")
    for env in container.get("env") or []:
        name, value = env.get("name", ""), env.get("value")
        if value is None:
            continue
        if SECRET_NAME.search(name):
            problems.append(f"env {name} is written in the manifest (use valueFrom.secretKeyRef)")
        match = URL_PASSWORD.match(str(value))
        if match and not re.fullmatch(r"\$\([A-Z0-9_]+\)", match.group(1)):
            problems.append(f"env {name} carries a password in its URL (use a $(VAR) from a Secret)")
    return problems


def check(paths):
    containers = 0
    violations = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            documents = list(yaml.safe_load_all(handle))
        for doc in documents:
            if not isinstance(doc, dict):
                continue
            kind = doc.get("kind")
            name = (doc.get("metadata") or {}).get("name", "?")
            where = f"{path}: {kind}/{name}"
            if kind == "Secret":
                violations.append(f"{where}: a Secret in the chart (secrets are created by ops and referenced by name)")
                continue
            if kind not in WORKLOADS:
                continue
            pod = pod_spec(doc)
            for init, key in ((True, "initContainers"), (False, "containers")):
                for container in pod.get(key) or []:
                    containers += 1
                    for problem in container_problems(container, pod, init):
                        violations.append(f"{where} container {container.get('name', '?')} {problem}")
    return containers, violations


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        containers, violations = check(argv)
    except (OSError, yaml.YAMLError) as error:
        print(f"policy: cannot read the manifests: {error}", file=sys.stderr)
        return 2
    for violation in violations:
        print(f"VIOLATION {violation}")
    print(f"policy: {containers} containers, {len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
