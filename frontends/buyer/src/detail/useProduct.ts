// One product for the detail page, with the failures the page tells apart: gone (404) or not loaded.
import { useEffect, useState } from 'react';
import { ApiError, useApi, useToast } from '@tuber/shell-contract';
import { productPath, type Product } from '../catalog/types.js';
import { tr, type T } from '../i18n/t.js';
import { problemText, useRetryWhenOnline } from '@tuber/ui';

export type ProductState =
  { status: 'loading' } | { status: 'ready'; product: Product } | { status: 'not-found' } | { status: 'error'; message: string };

export function useProduct(productId: string | undefined, t: T = tr): ProductState {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<ProductState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Failed while offline: loads again when the network is back (issue 25), with no toast the second time.
  useRetryWhenOnline(() => setAttempt((n) => n + 1), state.status === 'error');

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
        if (!product) throw new Error(t('common.no-data'));
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
        const message = problemText(error);
        if (attempt === 0) {
          if (error instanceof ApiError && error.statusCode !== 0) toast.error(t('product.fetch-error', { message }));
          else toast.error(t('product.fetch-failed'));
        }
        setState({ status: 'error', message });
      });
    return () => abort.abort();
    // Not `t`: a change of language must not fetch the product again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, toast, productId, attempt]);

  return state;
}
