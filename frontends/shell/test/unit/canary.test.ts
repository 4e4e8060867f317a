// Canary releases of a remote: the same people get the canary on every load, in about the share asked for.
import { describe, expect, it, vi } from 'vitest';
import { canaryBucket, chooseEntry } from '../../src/remotes/canary.js';
import { parseRemoteList, resolveEntries } from '../../src/remotes/discovery.js';

const buyer = {
  name: 'buyer',
  entry: '/mf/buyer/2026.11.28-31bf8c8/mf-manifest.json',
  canary: { entry: '/mf/buyer/2026.11.29-9e499ba/mf-manifest.json', percent: 20 },
};

describe('chooseEntry', () => {
  it('gives a person the same version on every load, and guests always the live one', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `account-${i}`);
    const first = ids.map((id) => chooseEntry(buyer, id));
    expect(ids.map((id) => chooseEntry(buyer, id))).toEqual(first);
    expect(chooseEntry(buyer, null)).toBe(buyer.entry);
    expect(chooseEntry({ name: 'buyer', entry: buyer.entry }, 'account-1')).toBe(buyer.entry);
  });

  it('sends about the share asked for to the canary (2 000 accounts, 20 %)', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `${i.toString(16)}-4b1e-4c55-9a2f-${(i * 7919).toString(16)}`);
    const share = ids.filter((id) => chooseEntry(buyer, id) === buyer.canary.entry).length / ids.length;
    expect(share).toBeGreaterThan(0.16);
    expect(share).toBeLessThan(0.24);
  });

  it('draws each remote separately (one person is not in every canary)', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `account-${i}`);
    const differ = ids.filter((id) => canaryBucket(id, 'buyer') !== canaryBucket(id, 'farmer')).length;
    expect(differ).toBeGreaterThan(150);
  });
});

describe('remotes.json with versions and a canary', () => {
  it('keeps the version and the canary, resolved against the page', () => {
    const [remote] = resolveEntries(parseRemoteList([{ ...buyer, version: '2026.11.28-31bf8c8' }]), 'http://localhost:8080/dashboard/buyer');
    expect(remote).toEqual({
      name: 'buyer',
      version: '2026.11.28-31bf8c8',
      entry: 'http://localhost:8080/mf/buyer/2026.11.28-31bf8c8/mf-manifest.json',
      canary: { entry: 'http://localhost:8080/mf/buyer/2026.11.29-9e499ba/mf-manifest.json', percent: 20 },
    });
  });

  it('ignores a canary it cannot use, with a warning, and keeps the live entry', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [remote] = parseRemoteList([{ name: 'buyer', entry: buyer.entry, canary: { entry: buyer.canary.entry, percent: 150 } }]);
    expect(remote).toEqual({ name: 'buyer', entry: buyer.entry });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"canary" needs'));
    warn.mockRestore();
  });
});
