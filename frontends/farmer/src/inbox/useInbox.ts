// One tab of the farmer's inbox: the first page of GET /api/orders/requests, "Load more" pages after it
// (keyset: next_cursor), a reload after a failure or a change, and the request an action answered with put
// in place.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OrderRequest, UnreadCount } from '@tuber/contracts';
import { setCounter, useApi } from '@tuber/shell-contract';
import { belongsTo, loadFailedText, MAX_PAGES_PER_LOAD, requestsPath, type InboxTab } from './inbox.js';
import { useRetryWhenOnline } from '@tuber/ui';

interface RequestsPage {
  items: OrderRequest[];
  next_cursor: string | null;
}

export type InboxState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | {
      status: 'loaded';
      requests: OrderRequest[];
      nextCursor: string | null;
      more: 'idle' | 'loading' | { failed: string };
      /** Which load of the first page this is (1, 2, …): what the list shows dates from it. */
      loadedAt: number;
      /** The unread count asked for with that first page (null if it did not come). */
      unreadAtLoad: number | null;
    };

export function useInbox(tab: InboxTab) {
  const api = useApi();

  /** The tab's requests from `cursor` on: pages of the service, filtered to the tab, until some are found. */
  const fetchFrom = useCallback(
    async (cursor: string | null): Promise<{ requests: OrderRequest[]; nextCursor: string | null }> => {
      const requests: OrderRequest[] = [];
      let next = cursor;
      for (let pages = 0; pages < MAX_PAGES_PER_LOAD; pages++) {
        const page = await api.get<RequestsPage>(requestsPath(tab, next));
        requests.push(...(page?.items ?? []).filter((request) => belongsTo(tab, request.status)));
        next = page?.next_cursor ?? null;
        if (requests.length > 0 || !next) break;
      }
      return { requests, nextCursor: next };
    },
    [api, tab],
  );
  const [state, setState] = useState<InboxState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  // The answer of a tab left meanwhile (or of an older reload) must not land in the list shown.
  const latest = useRef(0);

  useEffect(() => {
    const call = ++latest.current;
    // The unread count asked with the list: what a later rise of the shell's badge is measured against.
    const unread = api.get<UnreadCount>('/orders/unread').then(
      (answer) => (typeof answer?.count === 'number' ? answer.count : null),
      () => null,
    );
    Promise.all([fetchFrom(null), unread])
      .then(([{ requests, nextCursor }, unreadAtLoad]) => {
        if (call !== latest.current) return;
        if (unreadAtLoad !== null) setCounter('unread', unreadAtLoad);
        setState({ status: 'loaded', requests, nextCursor, more: 'idle', loadedAt: call, unreadAtLoad });
      })
      .catch((error: unknown) => {
        if (call === latest.current)
          setState({ status: 'failed', message: loadFailedText(error as { statusCode?: number; message?: string }) });
      });
  }, [api, fetchFrom, generation]);

  /** Shows the spinner again (a new tab, Retry) or keeps the list while it refreshes (after an action). */
  const reload = useCallback((showSpinner = false) => {
    setState((current) => (showSpinner || current.status !== 'loaded' ? { status: 'loading' } : current));
    setGeneration((n) => n + 1);
  }, []);

  // Failed while offline: loads again when the network is back (issue 25).
  useRetryWhenOnline(reload, state.status === 'failed');

  const loadMore = useCallback(async () => {
    if (state.status !== 'loaded' || !state.nextCursor || state.more === 'loading') return;
    const call = latest.current;
    const cursor = state.nextCursor;
    setState({ ...state, more: 'loading' });
    try {
      const page = await fetchFrom(cursor);
      if (call !== latest.current) return;
      setState((current) => {
        if (current.status !== 'loaded') return current;
        // Keyset pages do not overlap; this only keeps a request shown once should the list have been reloaded meanwhile.
        const known = new Set(current.requests.map((r) => r.request_id));
        const added = page.requests.filter((r) => !known.has(r.request_id));
        return { ...current, requests: [...current.requests, ...added], nextCursor: page.nextCursor, more: 'idle' };
      });
    } catch (error) {
      if (call !== latest.current) return;
      setState((current) =>
        current.status === 'loaded'
          ? { ...current, more: { failed: loadFailedText(error as { statusCode?: number; message?: string }) } }
          : current,
      );
    }
  }, [fetchFrom, state]);

  /** Puts a request as the service answered it in place of the one shown (same id). */
  const replace = useCallback((request: OrderRequest) => {
    setState((current) =>
      current.status === 'loaded'
        ? { ...current, requests: current.requests.map((r) => (r.request_id === request.request_id ? request : r)) }
        : current,
    );
  }, []);

  return { state, reload, loadMore, replace };
}
