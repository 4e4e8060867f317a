// The release store's live pointer (infra/release/remote.ts, docs/delivery.md) in a scratch store: a remote added
// after the store's first release (the moderation desk) is named at its unversioned prefix until its own first
// release, which points at its version and is recorded under its unit name (moderation-ui); a rollback goes back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REMOTES, pointAt, publish, readPointer, rollback, syncPointer, type Store } from '../../infra/release/remote.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-pointer-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function scratchStore(name: string): Store {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  return { dir, root, recordFile: path.join(dir, 'releases.json') };
}

/** A stand-in remote build: what publish needs (mf-manifest.json) and one more file that makes it differ. */
function build(name: string, note: string): string {
  const dir = path.join(scratch, 'builds', name, note);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify({ id: name, note }));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `/* ${name} ${note} */`);
  return dir;
}

const pointerFile = (store: Store) => JSON.parse(fs.readFileSync(path.join(store.dir, 'remotes.json'), 'utf8')) as { name: string; entry: string; version?: string }[];

describe('the live pointer and a remote added after the first release', () => {
  it('knows the four remotes', () => {
    expect([...REMOTES]).toEqual(['landing', 'buyer', 'farmer', 'moderation']);
  });

  it('names a remote the store’s pointer lacks at its unversioned prefix, and sync writes it down once', () => {
    const store = scratchStore('older-pointer');
    const older = [
      { name: 'landing', entry: '/mf/landing/mf-manifest.json' },
      { name: 'buyer', entry: '/mf/buyer/2026.01.01-1111111/mf-manifest.json', version: '2026.01.01-1111111' },
      { name: 'farmer', entry: '/mf/farmer/mf-manifest.json' },
    ];
    fs.writeFileSync(path.join(store.dir, 'remotes.json'), JSON.stringify(older));
    expect(readPointer(store)).toEqual([...older, { name: 'moderation', entry: '/mf/moderation/mf-manifest.json' }]);
    expect(syncPointer(store)).toEqual(['moderation']);
    expect(pointerFile(store)).toEqual(readPointer(store));
    expect(syncPointer(store)).toEqual([]); // nothing more to add
  });

  it('leaves a store without a pointer alone: the shell’s own remotes.json is served then', () => {
    const store = scratchStore('no-pointer');
    expect(syncPointer(store)).toEqual([]);
    expect(fs.existsSync(path.join(store.dir, 'remotes.json'))).toBe(false);
    expect(readPointer(store).map((item) => item.entry)).toEqual(REMOTES.map((name) => `/mf/${name}/mf-manifest.json`));
  });

  it('releases the moderation desk under its version, records it as moderation-ui, and rolls it back', () => {
    const store = scratchStore('moderation-release');
    fs.writeFileSync(path.join(store.dir, 'remotes.json'), JSON.stringify([{ name: 'buyer', entry: '/mf/buyer/mf-manifest.json' }]));
    const [v1, v2] = ['2026.12.01-1111111', '2026.12.02-2222222'];
    publish(store, 'moderation', build('moderation', 'first'), 'a'.repeat(40), v1);
    publish(store, 'moderation', build('moderation', 'second'), 'b'.repeat(40), v2);
    pointAt(store, 'moderation', v1);
    pointAt(store, 'moderation', v2);
    expect(pointerFile(store).find((item) => item.name === 'moderation')).toEqual({ name: 'moderation', entry: `/mf/moderation/${v2}/mf-manifest.json`, version: v2 });
    expect(fs.existsSync(path.join(store.dir, 'moderation', v2, 'mf-manifest.json'))).toBe(true);
    const units = () => (JSON.parse(fs.readFileSync(store.recordFile, 'utf8')) as { units: Record<string, { version: string }> }).units;
    expect(units()['moderation-ui']?.version).toBe(v2);
    expect(units().moderation, 'the service’s unit is not touched').toBeUndefined();
    expect(rollback(store, 'moderation')).toEqual({ from: v2, to: v1 });
    expect(pointerFile(store).find((item) => item.name === 'moderation')?.entry).toBe(`/mf/moderation/${v1}/mf-manifest.json`);
    expect(units()['moderation-ui']?.version).toBe(v1);
    // The other remotes keep their entries.
    expect(pointerFile(store).find((item) => item.name === 'buyer')?.entry).toBe('/mf/buyer/mf-manifest.json');
  });
});
