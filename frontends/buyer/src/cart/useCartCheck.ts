// Checks every cart line against the catalog each time the cart is viewed: GET /api/catalog/products/:id,
// a few at a time. Lines added while the page is open (another tab) are checked as they appear.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, useApi } from '@tuber/ui';
import { productPath, type Product } from '../catalog/types.js';
import type { CartItem } from './cart.js';
import { checkLine, mapWithLimit, type LineCheck, type ProductLookup } from './cartCheck.js';

/** Product requests in flight at once: enough to be quick, few enough to spare the catalog and a phone. */
export const CHECKS_IN_FLIGHT = 4;

export function useCartCheck(cart: readonly CartItem[]): ReadonlyMap<string, LineCheck> {
  const api = useApi();
  const [lookups, setLookups] = useState<ReadonlyMap<string, ProductLookup>>(() => new Map());
  const requested = useRef(new Set<string>());
  const answered = useRef(new Set<string>());
  const idsKey = [...new Set(cart.map((item) => item.product_id))].sort().join('\n');

  useEffect(() => {
    const ids = idsKey ? idsKey.split('\n') : [];
    const wanted = ids.filter((id) => !requested.current.has(id));
    if (wanted.length === 0) return;
    const abort = new AbortController();
    const asked = requested.current;
    const known = answered.current;
    for (const id of wanted) asked.add(id);
    void mapWithLimit(wanted, CHECKS_IN_FLIGHT, async (id) => {
      let lookup: ProductLookup;
      try {
        const product = await api.get<Product>(productPath(id), { signal: abort.signal });
        lookup = product ? { kind: 'found', product } : { kind: 'failed', message: 'No data returned' };
      } catch (error) {
        if (abort.signal.aborted) return;
        lookup =
          error instanceof ApiError && error.statusCode === 404
            ? { kind: 'gone' }
            : { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
      }
      known.add(id);
      setLookups((previous) => new Map(previous).set(id, lookup));
    });
    return () => {
      abort.abort();
      // Unmounted or the lines changed before the answers came: ask again for those still without one.
      for (const id of wanted) if (!known.has(id)) asked.delete(id);
    };
  }, [api, idsKey]);

  return useMemo(() => new Map(cart.map((item) => [item.product_id, checkLine(item, lookups.get(item.product_id))])), [cart, lookups]);
}
