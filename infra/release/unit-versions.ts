// Every deployable unit's release, as ops deploy it (issue 23): releases.json is the one record; this writes
//   infra/compose/release.env                  <NAME>_VERSION=<version> for each unit, for docker compose --env-file
//   infra/helm/releases/values-release.yaml    each service's and front end's image tag, a Helm values overlay
// so the compose images (tuber/<name>:<version>) and the Helm values name the same releases. The release
// commands (remote.ts) run it after each release or rollback; test/unit/unit-versions.test.ts keeps them in step.
//   npx tsx infra/release/unit-versions.ts
//   npx tsx infra/release/unit-versions.ts release <service> [commit]   (make release-service NAME=… COMMIT=…)
// The second records that a service of that commit (default HEAD) is what now runs in production: the
// compatibility checks (OpenAPI, events, pacts) then hold today's code to that release's files.
// A unit never released yet (not in releases.json, e.g. a new service) is left out of both files: compose
// then runs its local build (`${NAME}_VERSION:-dev`) and Helm the chart's appVersion, until its first release.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVICE_UNITS = ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation'] as const;
// A front end is the unit of its folder under frontends/ (its remote's name), except where a service has that
// name: the moderation desk (frontends/moderation, /mf/moderation/) is the unit moderation-ui, as its compose
// service, image, Helm value and daemon (infra/local/app.sh) are, since `moderation` is the service.
export const FRONTEND_UNITS = ['shell', 'landing', 'buyer', 'farmer', 'moderation-ui'] as const;
/** The unit a front end's folder (a remote's name) deploys as. */
export const frontendUnit = (folder: string): string => ((SERVICE_UNITS as readonly string[]).includes(folder) ? `${folder}-ui` : folder);
/** A front-end unit's folder under frontends/ (and its remote's name). */
export const frontendFolder = (unit: string): string => unit.replace(/-ui$/, '');
/** A unit's variable in infra/compose/release.env and docker-compose.yml: MODERATION_UI_VERSION for moderation-ui. */
export const versionVariable = (unit: string): string => `${unit.toUpperCase().replaceAll('-', '_')}_VERSION`;
export const COMPOSE_ENV = path.join(root, 'infra/compose/release.env');
export const HELM_VALUES = path.join(root, 'infra/helm/releases/values-release.yaml');

type Units = Record<string, { version: string; commit: string }>;

export function readUnits(file = path.join(root, 'releases.json')): Units {
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { units: Units }).units;
}

/** The units of `names` that releases.json records a release of. */
export const released = (units: Units, names: readonly string[]): string[] => names.filter((name) => units[name]);

export function composeEnv(units: Units): string {
  const lines = released(units, [...SERVICE_UNITS, ...FRONTEND_UNITS]).map((name) => `${versionVariable(name)}=${units[name]!.version}`);
  return `# Written by infra/release/unit-versions.ts from releases.json; do not edit.\n${lines.join('\n')}\n`;
}

export function helmValues(units: Units): string {
  const block = (names: readonly string[]) =>
    released(units, names)
      .map((name) => `  ${name}:\n    image: { tag: "${units[name]!.version}" }`)
      .join('\n');
  return `# Written by infra/release/unit-versions.ts from releases.json; do not edit. Install with\n# -f infra/helm/releases/values-release.yaml to deploy each unit's last release.\nservices:\n${block(SERVICE_UNITS)}\nfrontends:\n${block(FRONTEND_UNITS)}\n`;
}

export function writeUnitVersions(units = readUnits()): void {
  fs.mkdirSync(path.dirname(HELM_VALUES), { recursive: true });
  fs.writeFileSync(COMPOSE_ENV, composeEnv(units));
  fs.writeFileSync(HELM_VALUES, helmValues(units));
}

const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * Records `service` of `commitArg` (default HEAD) as released: its version is the commit's day and short
 * hash. The commit must be on this branch's history and must carry the service's OpenAPI snapshot, the
 * file the next release is checked against.
 */
export function releaseService(service: string, commitArg = 'HEAD', file = path.join(root, 'releases.json')): { version: string; commit: string } {
  if (!(SERVICE_UNITS as readonly string[]).includes(service)) throw new Error(`"${service}" is not a service (${SERVICE_UNITS.join(', ')})`);
  const commit = git('rev-parse', '--verify', `${commitArg}^{commit}`);
  try {
    git('merge-base', '--is-ancestor', commit, 'HEAD');
  } catch {
    throw new Error(`${commit.slice(0, 7)} is not in this branch's history: release a commit that landed`);
  }
  try {
    git('cat-file', '-e', `${commit}:contracts/openapi/${service}.json`);
  } catch {
    throw new Error(`${commit.slice(0, 7)} has no contracts/openapi/${service}.json: the next release could not be checked against it`);
  }
  const version = `${git('log', '-1', '--format=%cd', '--date=format:%Y.%m.%d', commit)}-${commit.slice(0, 7)}`;
  const record = JSON.parse(fs.readFileSync(file, 'utf8')) as { units: Units };
  record.units[service] = { version, commit };
  fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return { version, commit };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [command, service, commit] = process.argv.slice(2);
  if (command === 'release') {
    if (!service) throw new Error('usage: unit-versions.ts release <service> [commit]');
    const released = releaseService(service, commit || 'HEAD');
    console.log(`${service} ${released.version} recorded as released in releases.json`);
  }
  writeUnitVersions();
  console.log(`${path.relative(root, COMPOSE_ENV)} and ${path.relative(root, HELM_VALUES)} follow releases.json`);
}
