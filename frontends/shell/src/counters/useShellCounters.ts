// Keeps the badges' counters for a signed-in person: the cart from local storage (and other tabs'
// changes), the unread requests from the orders service, live by server-sent events with polling as the
// fallback. Signing out stops them all and zeroes the counters.
import { useEffect } from 'react';
import { onCounterRefresh, setCounter, type ApiClient } from '@tuber/shell-contract';
import { CART_KEY, CART_OWNER_KEY, storedCartCount } from './cartCount.js';
import { localStorageOrNull } from '../storage.js';
import { afterPageLoad } from '../afterPageLoad.js';
import { fetchUnreadCount, onTabWake, startUnreadPoller } from './unreadPoller.js';
import { browserStreamOpener, buyStreamTicket, startUnreadStream } from './unreadStream.js';

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

    // The first poll waits for the page to load: the badge is not the page's largest paint. The live stream
    // (docs/adr/0067) brings changes within a second or two; while it delivers, the poller stays quiet.
    let stopPolling = () => {};
    let stopStream = () => {};
    let live = false;
    const cancelStart = afterPageLoad(() => {
      stopPolling = startUnreadPoller({
        fetchCount: () => fetchUnreadCount(api),
        setCount: (count) => setCounter('unread', count),
        isVisible: () => document.visibilityState === 'visible' && !live,
        onWake: (listener) => onTabWake(() => live || listener()),
        onRefresh: (listener) => onCounterRefresh('unread', listener),
      });
      const open = browserStreamOpener();
      if (open)
        stopStream = startUnreadStream({
          buyTicket: () => buyStreamTicket(api),
          open,
          setCount: (count) => setCounter('unread', count),
          setLive: (value) => {
            live = value;
          },
          onOnline: (listener) => {
            window.addEventListener('online', listener);
            return () => window.removeEventListener('online', listener);
          },
        });
    });

    return () => {
      cancelStart();
      stopStream();
      stopPolling();
      window.removeEventListener('storage', onStorage);
      setCounter('unread', 0);
      setCounter('cart', 0);
    };
  }, [api, userId]);
}
