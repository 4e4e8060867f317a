import { describe, expect, it } from 'vitest';
import { fetchRemoteList, parseRemoteList, resolveEntries, withTimeout } from '../../src/remotes/discovery.js';

describe('remotes.json', () => {
  it('accepts the list of { name, entry } the gateway setup ships', () => {
    expect(parseRemoteList([{ name: 'landing', entry: '/mf/landing/mf-manifest.json' }])).toEqual([
      { name: 'landing', entry: '/mf/landing/mf-manifest.json' },
    ]);
  });
  it('rejects anything but an array', () => {
    expect(() => parseRemoteList({ landing: '/mf/landing/mf-manifest.json' })).toThrow(/JSON array/);
  });
  it('rejects names that cannot be federation containers', () => {
    expect(() => parseRemoteList([{ name: 'my-remote', entry: '/x.json' }])).toThrow(/container name/);
  });
  it('rejects a missing entry and duplicate names', () => {
    expect(() => parseRemoteList([{ name: 'buyer' }])).toThrow(/"entry"/);
    expect(() =>
      parseRemoteList([
        { name: 'buyer', entry: '/a' },
        { name: 'buyer', entry: '/b' },
      ]),
    ).toThrow(/twice/);
  });
  it('resolves relative entries against the shell address and keeps absolute ones', () => {
    const resolved = resolveEntries(
      [
        { name: 'landing', entry: '/mf/landing/mf-manifest.json' },
        { name: 'buyer', entry: 'https://cdn.example.com/buyer/mf-manifest.json' },
      ],
      'http://localhost:8080/dashboard/buyer',
    );
    expect(resolved.map((r) => r.entry)).toEqual([
      'http://localhost:8080/mf/landing/mf-manifest.json',
      'https://cdn.example.com/buyer/mf-manifest.json',
    ]);
  });
  it('reports a failed download with its status', async () => {
    const fakeFetch = (async () => new Response('Bad Gateway', { status: 502 })) as typeof fetch;
    await expect(fetchRemoteList('/remotes.json', fakeFetch)).rejects.toThrow('/remotes.json answered 502');
  });
});

describe('withTimeout', () => {
  it('gives up on a remote that never answers', async () => {
    await expect(withTimeout(new Promise(() => {}), 20, 'landing/LandingPage')).rejects.toThrow('landing/LandingPage did not answer');
  });
  it('passes a timely answer through', async () => {
    await expect(withTimeout(Promise.resolve('ok'), 1000, 'x')).resolves.toBe('ok');
  });
});
