// Every deployable unit's release, as ops deploy it (issue 23): releases.json is the one record; this writes
//   infra/compose/release.env                  <NAME>_VERSION=<version> for each unit, for docker compose --env-file
//   infra/helm/releases/values-release.yaml    each service's and front end's image tag, a Helm values overlay
// so the compose images (tuber/<name>:<version>) and the Helm values name the same releases. The release
// commands (remote.ts) run it after each release or rollback; test/unit/unit-versions.test.ts keeps them in step.
//   npx tsx infra/release/unit-versions.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVICE_UNITS = ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders'] as const;
export const FRONTEND_UNITS = ['shell', 'landing', 'buyer', 'farmer'] as const;
export const COMPOSE_ENV = path.join(root, 'infra/compose/release.env');
export const HELM_VALUES = path.join(root, 'infra/helm/releases/values-release.yaml');

type Units = Record<string, { version: string; commit: string }>;

export function readUnits(file = path.join(root, 'releases.json')): Units {
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { units: Units }).units;
}

export function composeEnv(units: Units): string {
  const lines = [...SERVICE_UNITS, ...FRONTEND_UNITS].map((name) => `${name.toUpperCase()}_VERSION=${units[name]!.version}`);
  return `# Written by infra/release/unit-versions.ts from releases.json; do not edit.\n${lines.join('\n')}\n`;
}

export function helmValues(units: Units): string {
  const block = (names: readonly string[]) => names.map((name) => `  ${name}:\n    image: { tag: "${units[name]!.version}" }`).join('\n');
  return `# Written by infra/release/unit-versions.ts from releases.json; do not edit. Install with\n# -f infra/helm/releases/values-release.yaml to deploy each unit's last release.\nservices:\n${block(SERVICE_UNITS)}\nfrontends:\n${block(FRONTEND_UNITS)}\n`;
}

export function writeUnitVersions(units = readUnits()): void {
  fs.mkdirSync(path.dirname(HELM_VALUES), { recursive: true });
  fs.writeFileSync(COMPOSE_ENV, composeEnv(units));
  fs.writeFileSync(HELM_VALUES, helmValues(units));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  writeUnitVersions();
  console.log(`${path.relative(root, COMPOSE_ENV)} and ${path.relative(root, HELM_VALUES)} follow releases.json`);
}
