// One product for the detail page, with the failures the page tells apart: gone (404) or not loaded.
import { useEffect, useState } from 'react';
import { ApiError, useApi, useToast } from '@tuber/ui';
import { productPath, type Product } from '../catalog/types.js';

export type ProductState =
  { status: 'loading' } | { status: 'ready'; product: Product } | { status: 'not-found' } | { status: 'error'; message: string };

export function useProduct(productId: string | undefined): ProductState {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<ProductState>({ status: 'loading' });

  useEffect(() => {
    if (!productId) {
      setState({ status: 'not-found' });
      return;
    }
    const abort = new AbortController();
    setState({ status: 'loading' });
    api
      .get<Product>(productPath(productId), { signal: abort.signal })
      .then((product) => {
        if (!product) throw new Error('No data returned');
        setState({ status: 'ready', product });
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        if (error instanceof ApiError && error.statusCode === 404) {
          setState({ status: 'not-found' });
          return;
        }
        // Spec §8: the server answered with an error → "Error fetching product. {message}"; no answer at all
        // (network down, gateway gone) → "Failed to fetch product details".
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof ApiError && error.statusCode !== 0) toast.error(`Error fetching product. ${message}`);
        else toast.error('Failed to fetch product details');
        setState({ status: 'error', message });
      });
    return () => abort.abort();
  }, [api, toast, productId]);

  return state;
}
