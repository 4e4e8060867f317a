// The cart badge's count at start and on changes from other tabs (issue 12): the number of items in
// localStorage "cart" (the spec's array of { product_id, …, quantity }), counted as the cart page's
// "Total items" counts them, the sum of the quantities. The buyer remote sets the counter itself on every
// change in this tab, the same way. A cart left by someone else (cart_owner is another account) counts 0:
// it is not this person's.

export const CART_KEY = 'cart';
export const CART_OWNER_KEY = 'cart_owner';

const quantityOf = (item: unknown): number => {
  const quantity = typeof item === 'object' && item !== null ? (item as { quantity?: unknown }).quantity : undefined;
  return typeof quantity === 'number' && Number.isFinite(quantity) && quantity > 0 ? quantity : 0;
};

/** Items in a stored cart text (the sum of the lines' quantities); anything unreadable counts 0. */
export function cartItemCount(text: string | null): number {
  if (!text) return 0;
  try {
    const items: unknown = JSON.parse(text);
    return Array.isArray(items) ? items.reduce((sum: number, item) => sum + quantityOf(item), 0) : 0;
  } catch {
    return 0;
  }
}

/** Whether cart_owner names someone other than `userId` (stored as the id itself or as a JSON string). */
export function ownedBySomeoneElse(owner: string | null, userId: string): boolean {
  if (!owner) return false;
  let id: unknown = owner;
  try {
    id = JSON.parse(owner);
  } catch {
    // stored raw
  }
  if (typeof id === 'object' && id !== null && 'id' in id) id = (id as { id: unknown }).id;
  return String(id) !== userId;
}

export function storedCartCount(storage: Pick<Storage, 'getItem'> | null, userId: string): number {
  if (!storage) return 0;
  try {
    if (ownedBySomeoneElse(storage.getItem(CART_OWNER_KEY), userId)) return 0;
    return cartItemCount(storage.getItem(CART_KEY));
  } catch {
    return 0;
  }
}

/** After "Yes, Logout": the next person on a shared phone starts with an empty cart. */
export function forgetCart(storage: Pick<Storage, 'removeItem'> | null): void {
  try {
    storage?.removeItem(CART_KEY);
    storage?.removeItem(CART_OWNER_KEY);
  } catch {
    // storage disabled: nothing was kept
  }
}
