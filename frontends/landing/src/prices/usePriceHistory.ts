// A tuber's weekly price figures (GET /api/catalog/prices/{slug}/history?location=), public: no sign-in needed.
// Switching the place keeps the figures on screen (dimmed) until the new ones arrive; a failure can be retried,
// and is retried by itself when the phone comes back online.
import { useCallback, useEffect, useState } from 'react';
import type { PriceHistory } from '@tuber/contracts';
import { ApiError, useApi, type ApiClient } from '@tuber/shell-contract';
import { problemText, useRetryWhenOnline } from '@tuber/ui';
import { historyApiPath, type TuberSlug } from './priceView.js';

export type PriceHistoryState =
  | { status: 'loading'; previous?: PriceHistory }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; history: PriceHistory };

/**
 * Histories asked for before the page rendered (its `prefetch`, called by the shell on a first load while React
 * builds the page): the page's first fetch takes the answer for its own path. Kept briefly, as the feed does.
 */
const PREFETCH_TTL_MS = 30_000;
const prefetched = new Map<string, { answer: Promise<PriceHistory>; at: number }>();

export function prefetchPriceHistory(api: ApiClient, slug: TuberSlug, location: string): void {
  const path = historyApiPath(slug, location);
  const kept = prefetched.get(path);
  if (kept && Date.now() - kept.at < PREFETCH_TTL_MS) return;
  const answer = api.get<PriceHistory>(path);
  // A failure is met (and shown) by the page's own fetch, which then asks again.
  answer.catch(() => prefetched.delete(path));
  prefetched.set(path, { answer, at: Date.now() });
}

function takePrefetched(path: string): Promise<PriceHistory> | null {
  const kept = prefetched.get(path);
  prefetched.delete(path);
  return kept && Date.now() - kept.at < PREFETCH_TTL_MS ? kept.answer : null;
}

/** An answer of the API, or the network's failure, in the reader's words. */
const failureText = (error: unknown) =>
  error instanceof ApiError || error instanceof TypeError ? problemText(error) : error instanceof Error ? error.message : String(error);

export function usePriceHistory(slug: TuberSlug, location: string) {
  const api = useApi();
  const [state, setState] = useState<PriceHistoryState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setState((before) => ({
      status: 'loading',
      ...(before.status === 'loaded' && before.history.tuber === slug.replace(/-/g, ' ') ? { previous: before.history } : {}),
    }));
    const path = historyApiPath(slug, location);
    (takePrefetched(path) ?? api.get<PriceHistory>(path))
      .then((history) => {
        if (current) setState({ status: 'loaded', history });
      })
      .catch((error: unknown) => {
        if (current) setState({ status: 'failed', message: failureText(error) });
      });
    return () => {
      current = false;
    };
  }, [api, slug, location, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  useRetryWhenOnline(retry, state.status === 'failed');
  return { state, retry };
}
