// remotes.json: the runtime list of remotes ({ name, entry }) the shell registers with the federation runtime.
// Ops replace the file (or set SHELL_REMOTES in the container) to move a remote; no rebuild. Released remotes
// (docs/delivery.md) also carry their `version` and may name a `canary`: another version for a share of
// signed-in people (canary.ts). Shells before the canary read only name and entry.
import type { Canary } from './canary.js';

export interface RemoteEntry {
  /** Federation container name, e.g. "landing". */
  name: string;
  /** URL of the remote's mf-manifest.json, absolute or relative to the shell's origin. */
  entry: string;
  /** The released version the entry points at (informational). */
  version?: string;
  canary?: Canary;
}

/** A remotes.json item's canary, or undefined (with a warning) when it is not a usable one: the live entry still works. */
function parseCanary(value: unknown, name: string): Canary | undefined {
  if (value === undefined) return undefined;
  const canary = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { entry, version, percent } = canary;
  if (typeof entry !== 'string' || entry.trim() === '' || typeof percent !== 'number' || !Number.isInteger(percent) || percent < 1 || percent > 99) {
    console.warn(`[shell] remotes.json (${name}): "canary" needs an "entry" URL and a whole "percent" from 1 to 99; ignored`);
    return undefined;
  }
  return { entry: entry.trim(), percent, ...(typeof version === 'string' ? { version } : {}) };
}

const CONTAINER_NAME = /^[A-Za-z_$][\w$]*$/;

/** Validates the parsed remotes.json; throws an Error saying what is wrong. */
export function parseRemoteList(json: unknown): RemoteEntry[] {
  if (!Array.isArray(json)) throw new Error('remotes.json must be a JSON array of { "name", "entry" }');
  const seen = new Set<string>();
  return json.map((item: unknown, index) => {
    const candidate = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const { name, entry } = candidate;
    if (typeof name !== 'string' || !CONTAINER_NAME.test(name)) {
      throw new Error(`remotes.json item ${index}: "name" must be a federation container name like "landing"`);
    }
    if (typeof entry !== 'string' || entry.trim() === '') throw new Error(`remotes.json item ${index} (${name}): "entry" must be a URL`);
    if (seen.has(name)) throw new Error(`remotes.json lists "${name}" twice`);
    seen.add(name);
    const canary = parseCanary(candidate.canary, name);
    return {
      name,
      entry: entry.trim(),
      ...(typeof candidate.version === 'string' ? { version: candidate.version } : {}),
      ...(canary ? { canary } : {}),
    };
  });
}

/** Resolves every entry against the shell's address, so "/mf/landing/mf-manifest.json" works behind any host. */
export function resolveEntries(remotes: RemoteEntry[], base: string): RemoteEntry[] {
  return remotes.map((remote) => ({
    ...remote,
    entry: new URL(remote.entry, base).href,
    ...(remote.canary ? { canary: { ...remote.canary, entry: new URL(remote.canary.entry, base).href } } : {}),
  }));
}

/** Rejects with a timeout error when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function fetchRemoteList(url: string, fetchImpl: typeof fetch = fetch, timeoutMs = 8000): Promise<RemoteEntry[]> {
  // The default cache mode: the page's preload of /remotes.json (index.html) is then the answer used here. The
  // servers send it with `Cache-Control: no-cache`, so a cached copy is always revalidated: a new deployment's
  // list is read on the next start all the same.
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseRemoteList(await response.json());
}
