// The buyer's phone for the request form when the session cannot give it (issue 25): the kept offline
// session leaves the phone out on purpose, so offline the form's phone field used to be empty. The number
// the signed-in session last showed, or the one the buyer last sent a request with, is kept beside the cart
// with its owner's id and used for that owner only: a phone shared by two buyers never offers one's number
// to the other, whoever cleared (or did not clear) the storage at logout.
import { nigerianE164 } from '@tuber/contracts';
import { storage } from './cartStore.js';

export const PHONE_KEY = 'buyer_phone';

interface Kept {
  owner: string;
  phone: string;
}


/** The phone (canonical digits, nigerianE164) kept for `owner`, or undefined (none, another person's, or unreadable). */
export function rememberedPhone(owner: string | undefined, from: Storage | null = storage()): string | undefined {
  if (!owner || !from) return undefined;
  try {
    const kept = JSON.parse(from.getItem(PHONE_KEY) ?? 'null') as Partial<Kept> | null;
    if (kept?.owner !== owner || typeof kept.phone !== 'string') return undefined;
    return nigerianE164(kept.phone) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `phone` for `owner` when it is a Nigerian number; anything else leaves what is kept as it is. */
export function rememberPhone(owner: string | undefined, phone: string | undefined, to: Storage | null = storage()): void {
  const e164 = phone ? nigerianE164(phone) : undefined;
  if (!owner || !e164 || !to) return;
  try {
    to.setItem(PHONE_KEY, JSON.stringify({ owner, phone: e164 } satisfies Kept));
  } catch {
    // Storage full or refused: the form simply starts empty offline.
  }
}

/** Forgets the kept phone unless it is `owner`'s (with the cart, when someone else signs in). */
export function forgetPhoneUnlessOwner(owner: string | null, from: Storage | null = storage()): void {
  if (!from) return;
  try {
    const kept = JSON.parse(from.getItem(PHONE_KEY) ?? 'null') as Partial<Kept> | null;
    if (kept && kept.owner !== owner) from.removeItem(PHONE_KEY);
  } catch {
    from.removeItem(PHONE_KEY);
  }
}
