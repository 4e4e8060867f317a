import { describe, expect, it } from 'vitest';
import {
  clearDrafts,
  DRAFT_MAX_AGE_MS,
  draftKey,
  hasTyped,
  readDraft,
  writeDraft,
  type ProductDraft,
} from '../../src/add-product/draft.js';
import { emptyProductForm } from '../../src/add-product/productForm.js';

/** localStorage's interface over a Map. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

const typed: ProductDraft = {
  values: { ...emptyProductForm, productName: 'White yam', price: '2500' },
  photos: [{ name: 'yam.jpg', image: { image_id: 'img-1', thumb_url: '/files/img-1.thumb.webp' } }],
  savedAt: Date.now(),
};

describe('the product form draft (issue 13)', () => {
  it('is kept per farmer and per form', () => {
    expect(draftKey('farmer-1')).toBe('tuber.farmer.draft.farmer-1.add');
    expect(draftKey('farmer-1', 'p-9')).toBe('tuber.farmer.draft.farmer-1.edit.p-9');
  });

  it('comes back as it was written', () => {
    const storage = memoryStorage();
    writeDraft(storage, draftKey('f1'), typed);
    expect(readDraft(storage, draftKey('f1'))).toEqual(typed);
    expect(readDraft(storage, draftKey('f2'))).toBeNull();
  });

  it('drops a draft that is too old or not a draft', () => {
    const storage = memoryStorage();
    writeDraft(storage, draftKey('f1'), { ...typed, savedAt: Date.now() - DRAFT_MAX_AGE_MS - 1 });
    expect(readDraft(storage, draftKey('f1'))).toBeNull();
    expect(storage.items.size).toBe(0);
    storage.setItem(draftKey('f1'), '{not json');
    expect(readDraft(storage, draftKey('f1'))).toBeNull();
  });

  it('keeps only photos that were uploaded (with an image id)', () => {
    const storage = memoryStorage();
    storage.setItem(draftKey('f1'), JSON.stringify({ ...typed, photos: [...typed.photos, { name: 'half.jpg' }] }));
    expect(readDraft(storage, draftKey('f1'))?.photos).toEqual(typed.photos);
  });

  it('clears every draft at sign-out, or those of other farmers when one opens the form', () => {
    const storage = memoryStorage();
    writeDraft(storage, draftKey('f1'), typed);
    writeDraft(storage, draftKey('f1', 'p1'), typed);
    writeDraft(storage, draftKey('f2'), typed);
    storage.setItem('tuber.locale', 'yo');
    clearDrafts(storage, 'f1');
    expect([...storage.items.keys()].sort()).toEqual([draftKey('f1'), draftKey('f1', 'p1'), 'tuber.locale'].sort());
    clearDrafts(storage);
    expect([...storage.items.keys()]).toEqual(['tuber.locale']);
  });

  it('is no draft when nothing was typed', () => {
    expect(hasTyped(emptyProductForm, emptyProductForm)).toBe(false);
    expect(hasTyped({ ...emptyProductForm, description: 'x' }, emptyProductForm)).toBe(true);
  });
});
