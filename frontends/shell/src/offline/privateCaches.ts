// What one person saw stays on the phone only while they are signed in (docs/adr/0042-offline.md): at
// logout, at the end of a session, and when someone else signs in on the same browser, the worker's
// private caches (API answers and photos) go. The page deletes them itself (Cache Storage is shared with
// the worker) and also asks the worker, in case a write is in flight there.
import { MESSAGE_CLEAR_PRIVATE, PRIVATE_CACHES } from '../sw/policy.js';

/** Whose answers the private caches hold (a user id), so another person's sign-in clears them first. */
const OWNER_KEY = 'tuber:offline-cache-owner';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export async function clearPrivateCaches(): Promise<void> {
  storage()?.removeItem(OWNER_KEY);
  navigator.serviceWorker?.controller?.postMessage({ type: MESSAGE_CLEAR_PRIVATE });
  if (typeof caches === 'undefined') return;
  await Promise.all(PRIVATE_CACHES.map((name) => caches.delete(name).catch(() => false)));
}

/** Called with the signed-in user's id: a different person than the caches' owner clears them first. */
export async function claimPrivateCaches(userId: string): Promise<void> {
  const owner = storage()?.getItem(OWNER_KEY);
  if (owner === userId) return;
  if (owner) await clearPrivateCaches();
  storage()?.setItem(OWNER_KEY, userId);
}
