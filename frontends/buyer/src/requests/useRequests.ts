// The buyer's requests for My requests (issue 12): GET /api/orders/requests, newest first, a page at a time
// ("Load more" follows next_cursor). Updates to one request (read, cancelled) replace it in place.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@tuber/shell-contract';
import { requestsPagePath, type OrderRequest, type OrderRequestPage } from '../orders/types.js';
import { problemText, useRetryWhenOnline } from '@tuber/ui';

export type RequestsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; items: OrderRequest[]; nextCursor: string | null; loadingMore: boolean; moreError: string | null };

const messageOf = (error: unknown) => (problemText(error));

export function useRequests() {
  const api = useApi();
  const [state, setState] = useState<RequestsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const abortMore = useRef<AbortController | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    api
      .get<OrderRequestPage>(requestsPagePath(null), { signal: abort.signal })
      .then((page) =>
        setState({ status: 'ready', items: page?.items ?? [], nextCursor: page?.next_cursor ?? null, loadingMore: false, moreError: null }),
      )
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'error', message: messageOf(error) });
      });
    return () => {
      abort.abort();
      abortMore.current?.abort();
    };
  }, [api, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Failed while offline: loads again when the network is back (issue 25).
  useRetryWhenOnline(retry, state.status === 'error');

  const loadMore = useCallback(() => {
    if (state.status !== 'ready' || !state.nextCursor || state.loadingMore) return;
    const cursor = state.nextCursor;
    const abort = new AbortController();
    abortMore.current = abort;
    setState({ ...state, loadingMore: true, moreError: null });
    api
      .get<OrderRequestPage>(requestsPagePath(cursor), { signal: abort.signal })
      .then((page) =>
        setState((previous) => {
          if (previous.status !== 'ready') return previous;
          // A request sent meanwhile may shift a page: never show one twice.
          const seen = new Set(previous.items.map((request) => request.request_id));
          const items = [...previous.items, ...(page?.items ?? []).filter((request) => !seen.has(request.request_id))];
          return { ...previous, items, nextCursor: page?.next_cursor ?? null, loadingMore: false };
        }),
      )
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        setState((previous) => (previous.status === 'ready' ? { ...previous, loadingMore: false, moreError: messageOf(error) } : previous));
      });
  }, [api, state]);

  const replace = useCallback((request: OrderRequest) => {
    setState((previous) =>
      previous.status === 'ready'
        ? { ...previous, items: previous.items.map((item) => (item.request_id === request.request_id ? request : item)) }
        : previous,
    );
  }, []);

  return { state, retry, loadMore, replace };
}
