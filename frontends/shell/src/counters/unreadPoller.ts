// The unread-requests counter (issue 12): the shell asks GET /api/orders/unread every 30 s while the tab
// is visible, at once when the tab comes back (focus, visibilitychange) and whenever a remote calls
// refreshCounter('unread'). A failed poll is quiet: the badge keeps the last count. Since issue 25 this is the
// fallback: while the live stream (unreadStream.ts, docs/adr/0067) delivers, the shell keeps it quiet.

import type { ApiClient } from '@tuber/shell-contract';

export const UNREAD_POLL_MS = 30_000;
/** Focus and visibilitychange usually fire together: one poll for both. */
export const WAKE_GAP_MS = 2_000;

export interface UnreadPollerOptions {
  /** The count now (GET /api/orders/unread → { count }). */
  fetchCount(): Promise<number>;
  setCount(count: number): void;
  isVisible(): boolean;
  /** Calls `listener` when the tab may have come back (focus, visibilitychange); returns the unsubscribe. */
  onWake(listener: () => void): () => void;
  /** Calls `listener` on refreshCounter('unread'); returns the unsubscribe. */
  onRefresh(listener: () => void): () => void;
  intervalMs?: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** Starts polling at once (when visible); returns stop(), after which no answer changes the count. */
export function startUnreadPoller(options: UnreadPollerOptions): () => void {
  const {
    fetchCount,
    setCount,
    isVisible,
    intervalMs = UNREAD_POLL_MS,
    now = () => Date.now(),
    setTimer = (run, ms) => setTimeout(run, ms),
    clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  } = options;
  let stopped = false;
  let timer: unknown;
  let inFlight = false;
  // A refresh asked for while a poll is out: its answer may predate the change, so ask once more after it.
  let again = false;
  let lastPollAt = Number.NEGATIVE_INFINITY;

  const schedule = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = setTimer(tick, intervalMs);
  };

  function tick() {
    timer = undefined;
    if (stopped) return;
    // Hidden: no poll, but keep the clock running; coming back polls at once (wake).
    if (isVisible()) void poll();
    else schedule();
  }

  async function poll(): Promise<void> {
    if (stopped) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    lastPollAt = now();
    try {
      const count = await fetchCount();
      if (!stopped && Number.isFinite(count)) setCount(count);
    } catch {
      // Offline, the orders service down, a token being renewed: keep the last count, try at the next tick.
    } finally {
      inFlight = false;
    }
    if (stopped) return;
    if (again) {
      again = false;
      void poll();
    } else schedule();
  }

  const wake = () => {
    if (stopped || !isVisible() || now() - lastPollAt < WAKE_GAP_MS) return;
    void poll();
  };

  const stopWake = options.onWake(wake);
  const stopRefresh = options.onRefresh(() => void poll());
  if (isVisible()) void poll();
  else schedule();

  return () => {
    stopped = true;
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
    stopWake();
    stopRefresh();
  };
}

/** GET /api/orders/unread (UnreadCount in contracts/src/orders.ts). */
export async function fetchUnreadCount(api: Pick<ApiClient, 'get'>): Promise<number> {
  const answer = await api.get<{ count?: unknown }>('/orders/unread');
  if (typeof answer?.count !== 'number') throw new Error('GET /api/orders/unread answered without a count');
  return answer.count;
}

/** The browser's wake signals: the window regaining focus and the document becoming visible. */
export function onTabWake(listener: () => void): () => void {
  const onVisibility = () => {
    if (document.visibilityState === 'visible') listener();
  };
  window.addEventListener('focus', listener);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('focus', listener);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
