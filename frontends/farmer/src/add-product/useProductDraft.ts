// Keeps the product form's draft in localStorage while the farmer types (see draft.ts): restored once when
// the form opens, saved on every change, cleared when the product is posted or saved.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAuth } from '@tuber/shell-contract';
import { browserStorage, clearDraft, clearDrafts, draftKey, hasTyped, readDraft, writeDraft, type ProductDraft } from './draft.js';
import type { ProductFormValues } from './productForm.js';
import type { UploadsState } from './uploads.js';

interface DraftOptions {
  farmerId: string | null;
  /** The product edited; none for Add Product. */
  productId?: string;
  /** The product's revision (edit): a draft of another revision is dropped. */
  revision?: number;
  /** The form as it opened: a draft equal to it is no draft. */
  baseline: ProductFormValues;
  /** The image ids the form opened with, joined by commas ('' for Add Product). */
  baselinePhotos: string;
  values: ProductFormValues;
  photos: UploadsState;
  /** Puts a found draft back into the form (once). */
  onRestore: (draft: ProductDraft) => void;
}

let signOutWatched = false;

/** The photos a draft keeps: every uploaded one, in order (an edit's posted ones too). */
const draftPhotos = (photos: UploadsState) =>
  photos.photos.flatMap((p) =>
    p.status === 'done' && p.image ? [{ name: p.name, image: p.image, ...(p.posted ? { posted: true } : {}) }] : [],
  );

export function useProductDraft({ farmerId, productId, revision, baseline, baselinePhotos, values, photos, onRestore }: DraftOptions) {
  const auth = useAuth();
  const key = farmerId ? draftKey(farmerId, productId) : null;
  const [restored, setRestored] = useState(false);
  // Nothing is written before the draft was looked for (and put back): the form as opened must not overwrite it.
  const checked = useRef<string | null>(null);
  const [writable, setWritable] = useState<string | null>(null);
  const restore = useRef(onRestore);
  restore.current = onRestore;

  // Signing out in this page (the shell's endSession) forgets every draft. Logout leaves for Keycloak at once, so
  // the shell's logout is where `tuber.farmer.draft.*` is best removed; meanwhile the next farmer on the phone
  // never sees them (drafts are per farmer, and other farmers' are dropped when the form opens).
  useEffect(() => {
    if (signOutWatched || !auth?.onSessionEvent) return;
    signOutWatched = true;
    auth.onSessionEvent((event) => {
      if (event === 'SIGNED_OUT') clearDrafts(browserStorage());
    });
  }, [auth]);

  useEffect(() => {
    if (!key || checked.current === key) return;
    const storage = browserStorage();
    // Another farmer's drafts on this phone are dropped, never shown.
    if (farmerId) clearDrafts(storage, farmerId);
    const draft = readDraft(storage, key);
    checked.current = key;
    setWritable(key);
    if (!draft) return;
    if (productId && draft.revision !== revision) {
      clearDraft(storage, key);
      return;
    }
    restore.current(draft);
    setRestored(true);
  }, [key, farmerId, productId, revision]);

  const photoIds = draftPhotos(photos);
  const photoSignature = photoIds.map((p) => p.image.image_id).join();

  useEffect(() => {
    if (!key || writable !== key) return;
    const storage = browserStorage();
    if (!hasTyped(values, baseline) && photoSignature === baselinePhotos) {
      clearDraft(storage, key);
      return;
    }
    writeDraft(storage, key, { values, photos: photoIds, savedAt: Date.now(), ...(revision !== undefined ? { revision } : {}) });
    // photoIds follows photoSignature
  }, [key, writable, values, baseline, baselinePhotos, photoSignature, revision]); // eslint-disable-line react-hooks/exhaustive-deps

  /** After a successful post or save, and for "Start again". */
  const clear = useCallback(() => {
    if (key) clearDraft(browserStorage(), key);
    setRestored(false);
  }, [key]);

  return { restored, clear };
}
