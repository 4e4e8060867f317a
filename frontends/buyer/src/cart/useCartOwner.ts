// Every exposed page calls this: when the remote runs for a signed-in user, the cart is checked to be
// theirs (cartStore.claimCart) before the page paints, and the cart badge is set.
import { useLayoutEffect } from 'react';
import { useSession } from '@tuber/shell-contract';
import { claimCart } from './cartStore.js';
import { forgetPhoneUnlessOwner } from './rememberedPhone.js';

/** The signed-in user's id, or null; claims the cart for them. */
export function useCartOwner(): string | null {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : null;
  useLayoutEffect(() => {
    if (userId) {
      claimCart(userId);
      // Another person's kept phone goes with their cart (issue 25).
      forgetPhoneUnlessOwner(userId);
    }
  }, [userId]);
  return userId;
}
