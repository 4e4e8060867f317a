// What a farmer typed in the product form, kept in localStorage until it is posted (issue 13): a dropped
// network or a reload loses nothing. One draft per farmer and form (the add form, or the edit of one
// product at one revision); posting clears it, and so does signing out (shared phones). Pure functions
// over a Storage, so the rules are tested without a browser.
import type { ProductFormValues } from './productForm.js';
import type { PhotoImage } from './uploads.js';

export const DRAFT_PREFIX = 'tuber.farmer.draft.';
/** A draft older than this is dropped rather than shown. */
export const DRAFT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

export interface DraftPhoto {
  name: string;
  image: PhotoImage;
  /** Part of the product already (edit page). */
  posted?: boolean;
}

export interface ProductDraft {
  values: ProductFormValues;
  /** Photos already uploaded (their ids are the media service's; unsent ones are not kept). */
  photos: DraftPhoto[];
  savedAt: number;
  /** Edit drafts: the revision the edit started from (a newer product makes the draft stale). */
  revision?: number;
}

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** "tuber.farmer.draft.<farmer>.add", "tuber.farmer.draft.<farmer>.edit.<product>". */
export const draftKey = (farmerId: string, productId?: string): string =>
  `${DRAFT_PREFIX}${farmerId}.${productId ? `edit.${productId}` : 'add'}`;

export function browserStorage(): DraftStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked: the form still works, without a draft
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function readDraft(storage: DraftStorage | null, key: string, now = Date.now()): ProductDraft | null {
  if (!storage) return null;
  let draft: unknown;
  try {
    draft = JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    draft = null;
  }
  if (!isObject(draft) || !isObject(draft.values) || typeof draft.savedAt !== 'number' || now - draft.savedAt > DRAFT_MAX_AGE_MS) {
    if (draft !== null) clearDraft(storage, key);
    return null;
  }
  const photos = Array.isArray(draft.photos)
    ? (draft.photos as unknown[]).filter(
        (p): p is DraftPhoto => isObject(p) && typeof p.name === 'string' && isObject(p.image) && typeof p.image.image_id === 'string',
      )
    : [];
  return { ...(draft as unknown as ProductDraft), photos };
}

export function writeDraft(storage: DraftStorage | null, key: string, draft: ProductDraft): void {
  try {
    storage?.setItem(key, JSON.stringify(draft));
  } catch {
    // quota: the draft is lost, never the form
  }
}

export function clearDraft(storage: DraftStorage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // nothing to do
  }
}

/** Drops drafts, all of them or every one but those of `keepFarmerId` (the next person on a shared phone sees none). */
export function clearDrafts(storage: DraftStorage | null, keepFarmerId?: string): void {
  if (!storage) return;
  const keep = keepFarmerId ? `${DRAFT_PREFIX}${keepFarmerId}.` : null;
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(DRAFT_PREFIX) && !(keep && key.startsWith(keep))) keys.push(key);
  }
  keys.forEach((key) => clearDraft(storage, key));
}

/** Whether the values hold anything typed (an untouched form is no draft). */
export function hasTyped(values: ProductFormValues, empty: ProductFormValues): boolean {
  return (Object.keys(empty) as (keyof ProductFormValues)[]).some((k) => values[k] !== empty[k]);
}
