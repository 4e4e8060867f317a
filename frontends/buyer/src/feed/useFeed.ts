// The buyer feed's data: pages of the catalog, newest first, following the API's cursor.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@tuber/ui';
import { feedPath, type Product, type ProductPage } from '../catalog/types.js';

export interface FeedState {
  products: Product[];
  /** Where the next page starts; null once the last page is in. */
  nextCursor: string | null;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useFeed(): FeedState & { hasMore: boolean; loadMore: () => void } {
  const api = useApi();
  const [state, setState] = useState<FeedState>({ products: [], nextCursor: null, status: 'loading', error: null });
  const loading = useRef(false);
  const started = useRef(false);
  const cursor = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  const fetchPage = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    const abort = new AbortController();
    controller.current = abort;
    setState((previous) => ({ ...previous, status: 'loading', error: null }));
    try {
      const page = await api.get<ProductPage>(feedPath(cursor.current), { signal: abort.signal });
      cursor.current = page.next_cursor;
      setState((previous) => {
        // A product can move between pages while the buyer scrolls; show it once.
        const seen = new Set(previous.products.map((product) => product.product_id));
        const fresh = page.items.filter((product) => !seen.has(product.product_id));
        return { products: [...previous.products, ...fresh], nextCursor: page.next_cursor, status: 'ready', error: null };
      });
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
  }, [api]);

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

  return { ...state, hasMore, loadMore };
}
