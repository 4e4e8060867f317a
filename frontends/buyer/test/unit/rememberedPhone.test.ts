// The phone kept for the request form offline (issue 25): only its owner's, only a Nigerian number.
import { describe, expect, it } from 'vitest';
import { forgetPhoneUnlessOwner, PHONE_KEY, rememberedPhone, rememberPhone } from '../../src/cart/rememberedPhone.js';

function memory(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('the remembered phone', () => {
  it('gives the owner back the number the session showed, in the canonical digits', () => {
    const store = memory();
    rememberPhone('buyer-1', '0803 123 4567', store);
    expect(rememberedPhone('buyer-1', store)).toBe('2348031234567');
  });

  it('never offers one buyer’s number to another, and forgets it when someone else signs in', () => {
    const store = memory();
    rememberPhone('buyer-1', '+2348031234567', store);
    expect(rememberedPhone('buyer-2', store)).toBeUndefined();
    forgetPhoneUnlessOwner('buyer-1', store);
    expect(store.getItem(PHONE_KEY)).not.toBeNull();
    forgetPhoneUnlessOwner('buyer-2', store);
    expect(store.getItem(PHONE_KEY)).toBeNull();
  });

  it('keeps nothing that is not a Nigerian number, and survives a broken entry', () => {
    const store = memory();
    rememberPhone('buyer-1', 'call me', store);
    expect(store.getItem(PHONE_KEY)).toBeNull();
    store.setItem(PHONE_KEY, '{not json');
    expect(rememberedPhone('buyer-1', store)).toBeUndefined();
    forgetPhoneUnlessOwner('buyer-1', store);
    expect(store.getItem(PHONE_KEY)).toBeNull();
  });
});
