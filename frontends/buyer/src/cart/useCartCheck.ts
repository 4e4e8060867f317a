// Checks every cart line against the catalog each time the cart is viewed: GET /api/catalog/products/:id,
// a few at a time. Lines added while the page is open (another tab) are checked as they appear.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, useApi } from '@tuber/shell-contract';
import { productPath, type Product } from '../catalog/types.js';
import { tr } from '../i18n/t.js';
import type { CartItem } from './cart.js';
import { checkLine, mapWithLimit, type LineCheck, type ProductLookup } from './cartCheck.js';
import { problemText } from '@tuber/ui';

/** Product requests in flight at once: enough to be quick, few enough to spare the catalog and a phone. */
export const CHECKS_IN_FLIGHT = 4;

export interface CartCheckResult {
  checks: ReadonlyMap<string, LineCheck>;
  /** farmer_id → business name, from the products fetched (issue 12: the cart's lines grouped by farmer). */
  businessNames: ReadonlyMap<string, string>;
  recheck(productIds: readonly string[]): void;
}

export function useCartCheck(cart: readonly CartItem[]): CartCheckResult {
  const api = useApi();
  const [lookups, setLookups] = useState<ReadonlyMap<string, ProductLookup>>(() => new Map());
  const requested = useRef(new Set<string>());
  const answered = useRef(new Set<string>());
  const [round, setRound] = useState(0);
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
        lookup = product ? { kind: 'found', product } : { kind: 'failed', message: tr('common.no-data') };
      } catch (error) {
        if (abort.signal.aborted) return;
        lookup =
          error instanceof ApiError && error.statusCode === 404
            ? { kind: 'gone' }
            : { kind: 'failed', message: problemText(error) };
      }
      known.add(id);
      setLookups((previous) => new Map(previous).set(id, lookup));
    });
    return () => {
      abort.abort();
      // Unmounted or the lines changed before the answers came: ask again for those still without one.
      for (const id of wanted) if (!known.has(id)) asked.delete(id);
    };
  }, [api, idsKey, round]);

  /** Fetches these products again (the orders service said they changed since this page checked them). */
  const recheck = useCallback((productIds: readonly string[]) => {
    if (productIds.length === 0) return;
    for (const id of productIds) {
      requested.current.delete(id);
      answered.current.delete(id);
    }
    setLookups((previous) => {
      const next = new Map(previous);
      for (const id of productIds) next.delete(id);
      return next;
    });
    setRound((n) => n + 1);
  }, []);

  const checks = useMemo(
    () => new Map(cart.map((item) => [item.product_id, checkLine(item, lookups.get(item.product_id))])),
    [cart, lookups],
  );
  // Kept across rechecks, so a farmer's heading does not blink while their product is fetched again.
  const knownNames = useRef(new Map<string, string>());
  const businessNames = useMemo(() => {
    const names = knownNames.current;
    for (const lookup of lookups.values()) {
      if (lookup.kind === 'found' && lookup.product.business_name) names.set(lookup.product.farmer_id, lookup.product.business_name);
    }
    return new Map(names);
  }, [lookups]);
  return { checks, businessNames, recheck };
}
