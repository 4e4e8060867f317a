// Connects remotes.json to the federation runtime and loads exposed modules with a timeout and a retry path.
import { getInstance, init, type ModuleFederation } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import type { PagePrefetchContext } from '@tuber/shell-contract';
import { localStorageOrNull } from '../storage.js';
import { CANARY_ID_KEY, chooseEntry } from './canary.js';
import { unmetRequirements } from './contractMismatch.js';
import { fetchRemoteList, resolveEntries, withTimeout, type RemoteEntry } from './discovery.js';

const REMOTES_URL = '/remotes.json';
const LOAD_TIMEOUT_MS = 10_000;

let discovery: Promise<Map<string, RemoteEntry>> | null = null;

function federation(): ModuleFederation {
  // The webpack runtime has already created the host instance named "shell"; init() returns it.
  return getInstance() ?? init({ name: 'shell', remotes: [] });
}

/** Fetches remotes.json once and registers every remote; a failure is forgotten so the next call tries again. */
export function discoverRemotes(): Promise<Map<string, RemoteEntry>> {
  discovery ??= fetchRemoteList(REMOTES_URL)
    .then((list) => {
      // A canary release goes to its share of signed-in people, the same people on every load (canary.ts).
      const accountId = localStorageOrNull()?.getItem(CANARY_ID_KEY);
      const remotes = resolveEntries(list, window.location.href).map((remote) => ({ ...remote, entry: chooseEntry(remote, accountId) }));
      federation().registerRemotes(remotes.map(({ name, entry }) => ({ name, entry })));
      return new Map(remotes.map((remote) => [remote.name, remote]));
    })
    .catch((error: unknown) => {
      discovery = null;
      throw error;
    });
  return discovery;
}

/**
 * Starts fetching what `<remote>/<expose>` needs (its manifest, remoteEntry.js and the expose's own
 * chunks, not the remote's shared fallbacks) without running it; loadRemotePage then finds them fetched.
 * Best effort: a failure here only costs the head start.
 */
export async function preloadRemotePage(remote: string, expose: string): Promise<void> {
  const remotes = await discoverRemotes();
  if (!remotes.has(remote)) return;
  await federation().preloadRemote([{ nameOrAlias: remote, exposes: [expose], resourceCategory: 'sync', share: false, depsRemote: false }]);
}

export interface PageModule {
  default: ComponentType;
  /** Optional: starts the page's first request before it renders (PagePrefetchContext). */
  prefetch?: (context: PagePrefetchContext) => void;
}

/**
 * Loads `<remote>/<expose>`. After a failure, `retry` re-registers the remote with force so the runtime
 * drops its cached failed manifest/entry and really asks the server again.
 */
export async function loadRemotePage(remote: string, expose: string, { retry = false } = {}): Promise<PageModule> {
  const remotes = await withTimeout(discoverRemotes(), LOAD_TIMEOUT_MS, REMOTES_URL);
  const entry = remotes.get(remote);
  if (!entry) throw new Error(`${REMOTES_URL} has no remote named "${remote}"`);
  if (retry) federation().registerRemotes([{ name: entry.name, entry: entry.entry }], { force: true });

  const module = await withTimeout(
    federation().loadRemote<Partial<PageModule>>(`${remote}/${expose}`),
    LOAD_TIMEOUT_MS,
    `${remote}/${expose}`,
  );
  if (!module || typeof module.default !== 'function') throw new Error(`${remote}/${expose} has no default component export`);
  return module as PageModule;
}

/** The versions of the shared modules this shell provides itself (its own build's share config). */
function providedVersions(): Map<string, string> {
  const provided = new Map<string, string>();
  for (const [name, shares] of Object.entries(federation().options.shared ?? {})) {
    const own = shares.find((share) => share.from === 'shell') ?? shares[0];
    if (own?.version) provided.set(name, own.version);
  }
  return provided;
}

/**
 * After `remote` failed: what it asks of this shell that this shell does not provide (its manifest's strict
 * singleton ranges against this shell's versions). Empty when it fits, or when that cannot be told in time.
 */
export async function contractProblems(remote: string, timeoutMs = 3_000): Promise<string[]> {
  try {
    const entry = (await discoverRemotes()).get(remote)?.entry;
    if (!entry || !/\.json(\?|$)/.test(entry)) return [];
    const response = await withTimeout(fetch(entry, { credentials: 'same-origin' }), timeoutMs, entry);
    if (!response.ok) return [];
    return unmetRequirements(await response.json(), providedVersions());
  } catch {
    return [];
  }
}
