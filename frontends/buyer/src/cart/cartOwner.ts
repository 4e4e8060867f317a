// Whose cart this is (issue 12): a phone shared by two buyers must not show the first one's cart to the
// second. The owner is the signed-in user's id, stored beside the cart; pure rule here, storage in cartStore.

/** keep: the user's own cart · adopt: no owner recorded yet (a cart from before issue 12) · clear: someone else's. */
export type CartOwnerDecision = 'keep' | 'adopt' | 'clear';

export function cartOwnerDecision(storedOwner: string | null, userId: string): CartOwnerDecision {
  if (!storedOwner) return 'adopt';
  return storedOwner === userId ? 'keep' : 'clear';
}
