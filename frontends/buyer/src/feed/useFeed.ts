// The buyer feed's data: pages of the catalog for one search (filters and sort), following the API's cursor.
import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useApi, type ApiClient } from '@tuber/shell-contract';
import type { Product, ProductPage } from '../catalog/types.js';
import { feedApiPath, toFeedSearch, type FeedFilters } from './feedQuery.js';
import { problemText, useRetryWhenOnline } from '@tuber/ui';

export interface FeedState {
  products: Product[];
  /** Where the next page starts; null once the last page is in. */
  nextCursor: string | null;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  /** What the first page said of the search: read as (typos corrected), or a search to offer instead. */
  searchedAs?: string | undefined;
  didYouMean?: string | undefined;
}

const errorMessage = (error: unknown) => (problemText(error));

/**
 * What the feed showed when the buyer left it (e.g. to open a product, or for another search), so that
 * going back shows the same pages at the same place instead of page 1 at the top. One entry per search
 * (its canonical query), kept in memory for a few minutes only, and used only for a back/forward
 * navigation: a link to the feed, or a new search, always loads it fresh.
 */
interface FeedMemory {
  products: Product[];
  nextCursor: string | null;
  scrollY: number;
  savedAt: number;
}

const MEMORY_TTL_MS = 3 * 60_000;
/** Searches remembered at once: a few steps of Back, not a history of the day. */
const MEMORY_SEARCHES = 8;
const memory = new Map<string, FeedMemory>();

function recall(search: string): FeedMemory | null {
  const kept = memory.get(search);
  memory.delete(search);
  return kept && Date.now() - kept.savedAt < MEMORY_TTL_MS && kept.products.length > 0 ? kept : null;
}

function remember(search: string, kept: FeedMemory): void {
  memory.delete(search);
  memory.set(search, kept);
  for (const oldest of memory.keys()) {
    if (memory.size <= MEMORY_SEARCHES) break;
    memory.delete(oldest);
  }
}

/**
 * First pages asked for before the feed rendered (the page's `prefetch`, called by the shell on a first load
 * while React builds the page): the feed's first fetch takes the answer for its own path instead of asking
 * again. Kept briefly: a prefetch the page never used (the buyer went elsewhere) is not served later.
 */
const PREFETCH_TTL_MS = 30_000;
const prefetched = new Map<string, { answer: Promise<ProductPage>; at: number }>();

/** Starts the first page of a search, once (the shell's first-load prefetch). */
export function prefetchFeed(api: ApiClient, filters: FeedFilters): void {
  const path = feedApiPath(filters, null);
  const kept = prefetched.get(path);
  if (kept && Date.now() - kept.at < PREFETCH_TTL_MS) return;
  const answer = api.get<ProductPage>(path);
  // A failure is met (and shown) by the feed's own fetch, which then asks again.
  answer.catch(() => prefetched.delete(path));
  prefetched.set(path, { answer, at: Date.now() });
}

function takePrefetched(path: string): Promise<ProductPage> | null {
  const kept = prefetched.get(path);
  prefetched.delete(path);
  return kept && Date.now() - kept.at < PREFETCH_TTL_MS ? kept.answer : null;
}

/**
 * The feed of one search; a new search is a new hook (the page keys it by the search).
 * `restore`: the buyer came back (browser back or forward), so show what they left if it is recent.
 */
export function useFeed(
  filters: FeedFilters,
  restore: boolean,
): FeedState & { hasMore: boolean; loadMore: () => void; restoredScrollY: number | null } {
  const api = useApi();
  // Fixed for this hook's life: the page mounts a new feed for a new search.
  const [fixedFilters] = useState(filters);
  const [search] = useState(() => toFeedSearch(filters));
  const [restored] = useState(() => {
    const kept = recall(search);
    return restore ? kept : null;
  });
  const [state, setState] = useState<FeedState>(() =>
    restored
      ? { products: restored.products, nextCursor: restored.nextCursor, status: 'ready', error: null }
      : { products: [], nextCursor: null, status: 'loading', error: null },
  );
  const loading = useRef(false);
  const started = useRef(restored !== null);
  const cursor = useRef<string | null>(restored?.nextCursor ?? null);
  const controller = useRef<AbortController | null>(null);
  const latest = useRef(state);
  latest.current = state;

  // The position is followed while the feed is on screen and kept when it leaves. It cannot be read at
  // unmount: by then the router has scrolled the next page to the top. Layout-effect timing keeps the
  // save inside the same commit, before any scroll event that the page change causes.
  // Not read at mount: reading window.scrollY in a layout effect forces the browser to lay the page out inside the
  // commit (on the feed's first load, the whole page with the buyer's styles just arrived); read at the next
  // frame instead, when the page is laid out anyway, or at the first scroll.
  useLayoutEffect(() => {
    let scrollY: number | null = null;
    const follow = () => {
      scrollY = window.scrollY;
    };
    const frame = window.requestAnimationFrame(() => {
      if (scrollY === null) follow();
    });
    window.addEventListener('scroll', follow, { passive: true });
    return () => {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('scroll', follow);
      const { products } = latest.current;
      if (products.length > 0) remember(search, { products, nextCursor: cursor.current, scrollY: scrollY ?? 0, savedAt: Date.now() });
    };
  }, [search]);

  const fetchPage = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    const abort = new AbortController();
    controller.current = abort;
    setState((previous) => ({ ...previous, status: 'loading', error: null }));
    try {
      const path = feedApiPath(fixedFilters, cursor.current);
      const early = cursor.current === null ? takePrefetched(path) : null;
      const page = await (early
        ? early.catch(() => api.get<ProductPage>(path, { signal: abort.signal }))
        : api.get<ProductPage>(path, { signal: abort.signal }));
      if (abort.signal.aborted) return;
      cursor.current = page.next_cursor;
      // A transition: React builds the new cards in slices between which the phone stays responsive, instead
      // of one long task (issue 13: the first page of cards was the feed's longest task, ~30 ms on a fast
      // machine, ×4 on the budget's phone).
      startTransition(() =>
        setState((previous) => {
          // A product can move between pages while the buyer scrolls; show it once.
          const seen = new Set(previous.products.map((product) => product.product_id));
          const fresh = page.items.filter((product) => !seen.has(product.product_id));
          const first = previous.products.length === 0;
          return {
            products: [...previous.products, ...fresh],
            nextCursor: page.next_cursor,
            status: 'ready',
            error: null,
            searchedAs: first ? page.searched_as : previous.searchedAs,
            didYouMean: first ? page.did_you_mean : previous.didYouMean,
          };
        }),
      );
      started.current = true;
    } catch (error) {
      if (abort.signal.aborted) return;
      setState((previous) => ({ ...previous, status: 'error', error: errorMessage(error) }));
    } finally {
      // An aborted request must not clear the flag of the one that replaced it.
      if (controller.current === abort) {
        controller.current = null;
        loading.current = false;
      }
    }
  }, [api, fixedFilters]);

  useEffect(() => {
    // A User Timing mark, so performance tools can tell the page's own time from the shell's start-up.
    if (!started.current && typeof performance !== 'undefined') performance.mark('buyer:feed-mounted');
    if (!started.current) void fetchPage();
    return () => {
      // Unmounting (or StrictMode's trial unmount): drop the request in flight so it can start again.
      controller.current?.abort();
      controller.current = null;
      loading.current = false;
    };
  }, [fetchPage]);

  const hasMore = state.nextCursor !== null;
  const loadMore = useCallback(() => {
    if (cursor.current !== null || !started.current) void fetchPage();
  }, [fetchPage]);
  // A page that failed while offline is asked for again when the network is back (issue 25).
  useRetryWhenOnline(loadMore, state.status === 'error');

  return { ...state, hasMore, loadMore, restoredScrollY: restored?.scrollY ?? null };
}
