// Can a service ship alone without breaking its callers (issue 23, docs/delivery.md)? Each service's OpenAPI
// document as it serves it today must match its snapshot (contracts/openapi/<name>.json, `make openapi`), and
// oasdiff must find no breaking change from the last release's document (releases.json) to today's. A change
// that breaks goes out as a new versioned route beside the old one, or it is refused here.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_NAMES, servedDocument, snapshotFile } from '../../infra/release/openapi-snapshots.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gateway = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-openapi-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function oasdiff(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('bash', [path.join(root, 'infra/local/oasdiff.sh'), ...args], { timeout: 600_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

function git(...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/**
 * The document the last release of `service` served. From its commit's snapshot; a release from before the
 * snapshots existed has none, and then today's snapshot stands for it only if nothing the service is built
 * from has changed since that commit.
 */
function releasedDocument(service: string): string {
  const commit = releases.units[service]!.commit;
  try {
    return git('show', `${commit}:contracts/openapi/${service}.json`);
  } catch {
    try {
      execFileSync('git', ['-C', root, 'diff', '--quiet', commit, 'HEAD', '--', `services/${service}/src`, 'services/kit/src', 'contracts/src'], { stdio: 'ignore' });
    } catch {
      throw new Error(`release ${commit.slice(0, 7)} of ${service} has no OpenAPI snapshot and the service changed since: record a release with one`);
    }
    return fs.readFileSync(snapshotFile(service), 'utf8');
  }
}

describe('OpenAPI documents against the last release', () => {
  for (const service of SERVICE_NAMES) {
    it(`${service}: serves what contracts/openapi/${service}.json records (make openapi)`, async () => {
      expect(await servedDocument(gateway, service), `contracts/openapi/${service}.json is out of date: run make openapi and review the diff`).toBe(
        fs.readFileSync(snapshotFile(service), 'utf8'),
      );
    });

    // A service never released (a new one, until its first `make release-service`) has no callers of a release to break.
    const release = releases.units[service];
    if (!release) {
      it.skip(`${service}: no breaking change since its release (none yet: releases.json has no ${service})`, () => undefined);
      continue;
    }
    it(`${service}: no breaking change since release ${release.commit.slice(0, 7)} (oasdiff)`, async () => {
      const base = path.join(scratch, `${service}-release.json`);
      fs.writeFileSync(base, releasedDocument(service));
      const { code, output } = await oasdiff('breaking', base, snapshotFile(service), '--fail-on', 'ERR');
      expect(code, output).toBe(0);
    }, 600_000);
  }

  it('refuses a removed route and a new required field (the check can fail)', async () => {
    const base = snapshotFile('catalog');
    const broken = JSON.parse(fs.readFileSync(base, 'utf8')) as { paths: Record<string, Record<string, any>> };
    delete broken.paths['/api/catalog/products/mine'];
    const post = broken.paths['/api/catalog/products']!.post!;
    const body = post.requestBody.content['application/json'].schema;
    body.properties.harvest_field = { type: 'string' };
    body.required = [...(body.required ?? []), 'harvest_field'];
    const revision = path.join(scratch, 'catalog-broken.json');
    fs.writeFileSync(revision, JSON.stringify(broken));
    const { code, output } = await oasdiff('breaking', base, revision, '--fail-on', 'ERR');
    expect(code).not.toBe(0);
    expect(output).toMatch(/api-path-removed|removed the path/i);
    expect(output).toMatch(/harvest_field/);
    console.log(output.split('\n').slice(0, 12).join('\n'));
  }, 600_000);
});
