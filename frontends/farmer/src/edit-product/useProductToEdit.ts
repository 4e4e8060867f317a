// The product the edit page changes (GET /api/catalog/products/:id), reloadable after a conflict.
// The ids of its photos come with it (Product.image_ids); should the product answer lack them, the
// farmer's own list (GET /api/catalog/products/mine) is asked, and without them the photos stay as they are.
import { useCallback, useEffect, useState } from 'react';
import type { Product } from '@tuber/contracts';
import { ApiError, useApi } from '@tuber/shell-contract';
import { loadFailedMessage, messageOf } from '../shared/messages.js';
import { useRetryWhenOnline } from '@tuber/ui';

export type ProductToEdit =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; product: Product; loadedAt: number };

const hasImageIds = (product: Product) => Array.isArray(product.image_ids) && product.image_ids.length === product.images.length;

export function useProductToEdit(productId: string) {
  const api = useApi();
  const [state, setState] = useState<ProductToEdit>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  const fetchProduct = useCallback(async (): Promise<Product> => {
    const product = await api.get<Product>(`/catalog/products/${encodeURIComponent(productId)}`);
    if (hasImageIds(product)) return product;
    const mine = await api.get<{ items: Product[] }>('/catalog/products/mine').catch(() => null);
    const own = mine?.items.find((item) => item.product_id === productId);
    return own && hasImageIds(own) && own.images.join() === product.images.join() ? { ...product, image_ids: own.image_ids! } : product;
  }, [api, productId]);

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    fetchProduct()
      .then((product) => current && setState({ status: 'loaded', product, loadedAt: Date.now() }))
      .catch((error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.statusCode === 404) setState({ status: 'not-found' });
        else setState({ status: 'failed', message: loadFailedMessage(messageOf(error)) });
      });
    return () => {
      current = false;
    };
  }, [fetchProduct, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  // Failed while offline: loads again when the network is back (issue 25).
  useRetryWhenOnline(reload, state.status === 'failed');
  /** The product as the catalog has it now, without touching the page (to tell a stale revision from other conflicts). */
  const latest = useCallback(() => fetchProduct(), [fetchProduct]);
  return { state, reload, latest, hasImageIds };
}
