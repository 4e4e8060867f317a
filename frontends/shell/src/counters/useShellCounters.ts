// Keeps the badges' counters for a signed-in person: the cart from local storage (and other tabs'
// changes), the unread requests by polling the orders service. Signing out stops both and zeroes them.
import { useEffect } from 'react';
import { onCounterRefresh, setCounter, type ApiClient } from '@tuber/shell-contract';
import { CART_KEY, CART_OWNER_KEY, storedCartCount } from './cartCount.js';
import { localStorageOrNull } from '../storage.js';
import { afterPageLoad } from '../afterPageLoad.js';
import { fetchUnreadCount, onTabWake, startUnreadPoller } from './unreadPoller.js';

export function useShellCounters(api: ApiClient, userId: string | null): void {
  useEffect(() => {
    if (!userId) return;
    const storage = localStorageOrNull();
    const countCart = () => setCounter('cart', storedCartCount(storage, userId));
    countCart();
    const onStorage = (event: StorageEvent) => {
      // key null: another tab cleared the whole storage.
      if (event.key === null || event.key === CART_KEY || event.key === CART_OWNER_KEY) countCart();
    };
    window.addEventListener('storage', onStorage);

    // The first poll waits for the page to load: the badge is not the page's largest paint.
    let stopPolling = () => {};
    const cancelStart = afterPageLoad(() => {
      stopPolling = startUnreadPoller({
        fetchCount: () => fetchUnreadCount(api),
        setCount: (count) => setCounter('unread', count),
        isVisible: () => document.visibilityState === 'visible',
        onWake: onTabWake,
        onRefresh: (listener) => onCounterRefresh('unread', listener),
      });
    });

    return () => {
      cancelStart();
      stopPolling();
      window.removeEventListener('storage', onStorage);
      setCounter('unread', 0);
      setCounter('cart', 0);
    };
  }, [api, userId]);
}
