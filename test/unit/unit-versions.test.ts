// Every deployable unit names its release the same way everywhere (issue 23): releases.json is the record,
// infra/compose/release.env and the Helm overlay infra/helm/releases/values-release.yaml are written from it
// (npx tsx infra/release/unit-versions.ts; the release commands do it too), and each unit's compose service
// names its image by that version.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import os from 'node:os';
import {
  COMPOSE_ENV,
  FRONTEND_UNITS,
  HELM_VALUES,
  SERVICE_UNITS,
  composeEnv,
  frontendFolder,
  frontendUnit,
  helmValues,
  readUnits,
  releaseService,
  versionVariable,
} from '../../infra/release/unit-versions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const units = readUnits();
// Units that have never been released (a new service until its first `make release-service`, a new remote until
// its first `make release-remote`): compose runs their local build and Helm the chart's appVersion; every other
// unit is named by its release everywhere.
const UNRELEASED = ['moderation', 'moderation-ui'];
const releasedUnits = [...SERVICE_UNITS, ...FRONTEND_UNITS].filter((name) => !UNRELEASED.includes(name));

describe('unit versions in compose and Helm follow releases.json', () => {
  it('release.env and the Helm overlay are what releases.json says', () => {
    expect(fs.readFileSync(COMPOSE_ENV, 'utf8'), 'run npx tsx infra/release/unit-versions.ts').toBe(composeEnv(units));
    expect(fs.readFileSync(HELM_VALUES, 'utf8'), 'run npx tsx infra/release/unit-versions.ts').toBe(helmValues(units));
    for (const name of releasedUnits) expect(units[name]?.version, name).toMatch(/^[0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9a-f]{7,40}/);
    // Not released yet: in neither file, so compose falls back to `dev` and Helm to the chart's tag.
    for (const name of UNRELEASED.filter((n) => !units[n])) {
      expect(fs.readFileSync(COMPOSE_ENV, 'utf8'), name).not.toContain(`${versionVariable(name)}=`);
      expect(fs.readFileSync(HELM_VALUES, 'utf8'), name).not.toMatch(new RegExp(`^  ${name}:`, 'm'));
    }
  });

  it('each unit in docker-compose.yml is an image named by its version variable', () => {
    const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { image?: string }> };
    for (const name of [...SERVICE_UNITS, ...FRONTEND_UNITS]) {
      expect(compose.services[name]?.image, name).toBe(`\${TUBER_IMAGE_REGISTRY:-tuber}/${name}:\${${versionVariable(name)}:-dev}`);
    }
  });

  it("the overlay sets only image tags the chart's values have", () => {
    const chart = parse(fs.readFileSync(path.join(root, 'infra/helm/tuber/values.yaml'), 'utf8')) as Record<string, Record<string, { image?: { tag?: string } }>>;
    const overlay = parse(fs.readFileSync(HELM_VALUES, 'utf8')) as Record<string, Record<string, { image: { tag: string } }>>;
    for (const [group, names] of [['services', SERVICE_UNITS], ['frontends', FRONTEND_UNITS]] as const) {
      for (const name of names) {
        expect(chart[group]?.[name]?.image, `${group}.${name}.image in the chart`).toHaveProperty('tag');
        expect(overlay[group]?.[name]?.image.tag).toBe(units[name]?.version);
      }
    }
  });
});

describe('front-end units', () => {
  it('are named after their folder, but <name>-ui where a service has the name (the moderation desk)', () => {
    expect(FRONTEND_UNITS.map(frontendFolder)).toEqual(['shell', 'landing', 'buyer', 'farmer', 'moderation']);
    for (const unit of FRONTEND_UNITS) {
      expect(frontendUnit(frontendFolder(unit)), unit).toBe(unit);
      expect(fs.existsSync(path.join(root, 'frontends', frontendFolder(unit), 'package.json')), unit).toBe(true);
    }
    expect(versionVariable('moderation-ui')).toBe('MODERATION_UI_VERSION');
    expect(composeEnv({ 'moderation-ui': { version: '2026.12.01-1234567', commit: '1234567' } })).toContain('\nMODERATION_UI_VERSION=2026.12.01-1234567\n');
  });
});

describe('make release-service', () => {
  const scratch = () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-release-service-')), 'releases.json');
    fs.copyFileSync(path.join(root, 'releases.json'), file);
    return file;
  };

  it('records a landed commit that carries the service’s OpenAPI snapshot', () => {
    const file = scratch();
    expect(releaseService('catalog', '0d5ba38', file)).toEqual({ version: '2026.11.28-0d5ba38', commit: expect.stringMatching(/^0d5ba38[0-9a-f]{33}$/) });
    expect(readUnits(file).catalog?.version).toBe('2026.11.28-0d5ba38');
    expect(readUnits(file).shell).toEqual(units.shell); // the other units stay as they were
  });

  it('refuses what is not a service, and a commit without the snapshot to check the next release against', () => {
    const file = scratch();
    expect(() => releaseService('shell', 'HEAD', file)).toThrow(/not a service/);
    expect(() => releaseService('catalog', '66492ab', file)).toThrow(/no contracts\/openapi\/catalog.json/);
    expect(fs.readFileSync(file, 'utf8')).toBe(fs.readFileSync(path.join(root, 'releases.json'), 'utf8'));
  });
});
