// Canary releases of a remote (docs/delivery.md): remotes.json may name a second version of a remote for a share
// of signed-in people. Who gets it is decided from the person's account id, not by chance, so a reload, another
// tab or another phone of the same person shows the same version; guests always get the live one.

/** The signed-in person's account id, kept (localStorage) for the next page load's choice; gone at logout. */
export const CANARY_ID_KEY = 'tuber:canary-id';

/** The person's bucket for one remote, 0–99: FNV-1a of "<id>:<remote>", so each remote's canary draws its own share. */
export function canaryBucket(accountId: string, remote: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${accountId}:${remote}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 100;
}

export interface Canary {
  /** The canary version's mf-manifest.json. */
  entry: string;
  version?: string;
  /** Share of signed-in people, 1–99. */
  percent: number;
}

/** The entry this person loads for a remote: the canary's when their bucket falls in its share. */
export function chooseEntry(remote: { name: string; entry: string; canary?: Canary }, accountId: string | null | undefined): string {
  if (!remote.canary || !accountId) return remote.entry;
  return canaryBucket(accountId, remote.name) < remote.canary.percent ? remote.canary.entry : remote.entry;
}
