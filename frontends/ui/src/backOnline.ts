// Back online, try again by itself (issue 25): a page whose load failed while the phone was offline (or the
// network dropped) loads again when the browser says the network is back, instead of staying in error until
// the person navigates away.
import { useEffect, useRef } from 'react';

/** Calls `retry` each time the browser comes back online, while `failed` is true. */
export function useRetryWhenOnline(retry: () => void, failed: boolean): void {
  const latest = useRef(retry);
  latest.current = retry;
  useEffect(() => {
    if (!failed || typeof window === 'undefined') return;
    const again = () => latest.current();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [failed]);
}
