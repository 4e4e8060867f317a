"""Validates rendered manifests against the Kubernetes JSON schemas that PyPI's kubernetes-validate
ships (no download at run time), in strict mode: an unknown field is an error, as is a kind the
schemas do not know. Run with the python of the venv infra/local/helm.sh installs.

Usage: python validate.py --versions 1.27.0,1.37.0 FILE...
Prints one line per error, then
  validation: <manifests> manifests, <versions> Kubernetes versions (<list>, strict), <errors> errors
and exits 1 when there is any error.
"""

import argparse
import sys

import kubernetes_validate
import yaml
from kubernetes_validate.utils import SchemaNotFoundError, ValidationError, VersionNotSupportedError


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", default="1.37.0")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    versions = [v.strip() for v in args.versions.split(",") if v.strip()]
    manifests = 0
    errors = []
    for path in args.files:
        with open(path, encoding="utf-8") as handle:
            documents = [d for d in yaml.safe_load_all(handle) if d]
        for doc in documents:
            manifests += 1
            where = f"{path}: {doc.get('kind', '?')}/{(doc.get('metadata') or {}).get('name', '?')}"
            for version in versions:
                try:
                    kubernetes_validate.validate(doc, version, strict=True)
                except ValidationError as error:
                    location = ".".join(str(p) for p in error.path) or "(top)"
                    errors.append(f"{where} [{version}] {location}: {error.message}")
                except SchemaNotFoundError:
                    errors.append(f"{where} [{version}] no schema for {doc.get('apiVersion')} {doc.get('kind')} (removed or misspelt API)")
                except VersionNotSupportedError as error:
                    errors.append(f"[{version}] {error}")
    for error in errors:
        print(f"ERROR {error}")
    print(
        f"validation: {manifests} manifests, {len(versions)} Kubernetes versions "
        f"({', '.join(versions)}, strict), {len(errors)} errors"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
