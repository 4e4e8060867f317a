// The list of common passwords Keycloak's realm policy refuses (passwordBlacklist), read by the
// auth service too, so that sign-up can refuse such a password before it answers — it answers
// before it touches Keycloak (docs/adr/0021). Like Keycloak, the comparison ignores case.
import { readFile } from 'node:fs/promises';

export interface PasswordBlocklist {
  /** How many passwords the list holds (0: no list configured). */
  readonly size: number;
  has(password: string): boolean;
}

export function blocklistOf(passwords: Iterable<string>): PasswordBlocklist {
  const set = new Set<string>();
  for (const line of passwords) {
    const entry = line.trim().toLowerCase();
    if (entry && !entry.startsWith('#')) set.add(entry);
  }
  return { size: set.size, has: (password) => set.has(password.toLowerCase()) };
}

/** One password a line, as Keycloak reads its blacklist files. `optional`: a missing file means an empty list. */
export async function loadBlocklist(path: string, optional = false): Promise<PasswordBlocklist> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (optional && (err as NodeJS.ErrnoException).code === 'ENOENT') return blocklistOf([]);
    throw err;
  }
  return blocklistOf(text.split(/\r?\n/));
}
