// Remote releases as pointer moves (issue 23, docs/delivery.md), through the running gateway: a release is
// served immutable under /mf/<name>/<version>/, the live remotes.json names it, a rollback is a rewrite of
// that file and takes effect on the next request, and a version never changes. The store's pointer and
// history are put back afterwards; releases are recorded in a scratch file, not in the checkout's releases.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canary, canaryOff, contentHash, pointAt, publish, rollback } from '../../infra/release/remote.js';
import { clearHistory, releaseStoreDir as storeDir, testStore } from '../support/release-store.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gateway = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const { store, scratch, restore } = testStore('tuber-releases');

// Two builds of the buyer remote: this checkout's, and the same with one file more (as a later build would differ).
const V1 = '2026.01.01-1111111';
const V2 = '2026.01.02-2222222';

async function pointer(): Promise<{ name: string; entry: string; version?: string; canary?: { version: string; percent: number } }[]> {
  const answer = await fetch(`${gateway}/remotes.json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-cache');
  return answer.json();
}

beforeAll(() => {
  const dist = path.join(root, 'frontends/buyer/dist');
  if (!fs.existsSync(path.join(dist, 'mf-manifest.json'))) throw new Error('frontends/buyer is not built: run make build');
  const later = path.join(scratch, 'buyer-later');
  fs.cpSync(dist, later, { recursive: true });
  fs.writeFileSync(path.join(later, 'build-note.txt'), 'a later build\n');
  for (const version of [V1, V2]) fs.rmSync(path.join(storeDir, 'buyer', version), { recursive: true, force: true });
  clearHistory('buyer'); // put back afterwards with the rest
  publish(store, 'buyer', dist, 'a'.repeat(40), V1);
  publish(store, 'buyer', later, 'b'.repeat(40), V2);
});

afterAll(() => {
  for (const version of [V1, V2]) fs.rmSync(path.join(storeDir, 'buyer', version), { recursive: true, force: true });
  restore();
});

describe('remote releases through the gateway', () => {
  it('serves a released build under its version, immutable, with its precompressed copy', async () => {
    for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
      const answer = await fetch(`${gateway}/mf/buyer/${V1}/${file}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(answer.status, file).toBe(200);
      expect(answer.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(await answer.text()).toBe(fs.readFileSync(path.join(root, 'frontends/buyer/dist', file), 'utf8'));
    }
    expect((await fetch(`${gateway}/mf/buyer/${V1}/no-such-file.js`)).status).toBe(404);
    // What the store keeps beside a version is not served.
    expect((await fetch(`${gateway}/mf/buyer/${V1}/.release.json`)).status).not.toBe(200);
  });

  it('makes a release live by rewriting remotes.json, and rolls it back in milliseconds', async () => {
    pointAt(store, 'buyer', V1);
    pointAt(store, 'buyer', V2);
    const live = (await pointer()).find((item) => item.name === 'buyer')!;
    expect(live).toMatchObject({ entry: `/mf/buyer/${V2}/mf-manifest.json`, version: V2 });
    expect((await fetch(`${gateway}${live.entry}`)).status).toBe(200);
    expect(JSON.parse(fs.readFileSync(store.recordFile, 'utf8')).units.buyer).toEqual({ version: V2, commit: 'b'.repeat(40) });

    const started = performance.now();
    expect(rollback(store, 'buyer')).toEqual({ from: V2, to: V1 });
    const back = (await pointer()).find((item) => item.name === 'buyer')!;
    const tookMs = performance.now() - started;
    expect(back).toMatchObject({ entry: `/mf/buyer/${V1}/mf-manifest.json`, version: V1 });
    expect(tookMs).toBeLessThan(5_000); // a pointer move: a few ms here, with the gateway's answer included
    console.log(`rollback, pointer rewritten and served by the gateway: ${tookMs.toFixed(1)} ms`);
    expect(JSON.parse(fs.readFileSync(store.recordFile, 'utf8')).units.buyer.version).toBe(V1);
    expect(() => rollback(store, 'buyer')).toThrow(/no earlier release/);
  });

  it('refuses to change a released version', () => {
    const other = path.join(scratch, 'buyer-other');
    fs.cpSync(path.join(root, 'frontends/buyer/dist'), other, { recursive: true });
    fs.writeFileSync(path.join(other, 'remoteEntry.js'), '/* another build */');
    expect(() => publish(store, 'buyer', other, 'c'.repeat(40), V1)).toThrow(/already released with other contents/);
    expect(contentHash(path.join(storeDir, 'buyer', V1))).not.toBe(contentHash(other));
  });

  it('names a canary version with its share in remotes.json, and ends it', async () => {
    pointAt(store, 'buyer', V1);
    canary(store, 'buyer', V2, 25);
    expect((await pointer()).find((item) => item.name === 'buyer')!.canary).toMatchObject({ version: V2, percent: 25 });
    expect(() => canary(store, 'buyer', V2, 100)).toThrow(/1 to 99/);
    expect(() => canary(store, 'buyer', '2026.01.03-3333333', 10)).toThrow(/no released version/);
    canaryOff(store, 'buyer');
    expect((await pointer()).find((item) => item.name === 'buyer')!.canary).toBeUndefined();
  });
});
