// The signed-in farmer's products (GET /api/catalog/products/mine), with a reload after changes.
import { useCallback, useEffect, useState } from 'react';
import type { Product } from '@tuber/contracts';
import { useApi, useToast } from '@tuber/shell-contract';
import { loadFailedMessage, messageOf } from '../shared/messages.js';
import { useRetryWhenOnline } from '@tuber/ui';

export type MyProducts = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; products: Product[] };

export function useMyProducts() {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<MyProducts>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    api
      .get<{ items: Product[] }>('/catalog/products/mine')
      .then((answer) => {
        if (current) setState({ status: 'loaded', products: answer?.items ?? [] });
      })
      .catch((error: unknown) => {
        if (!current) return;
        const message = loadFailedMessage(messageOf(error));
        setState({ status: 'failed', message });
        toast.error(message);
      });
    return () => {
      current = false;
    };
  }, [api, toast, generation]);

  const reload = useCallback(() => {
    // After a failed load the spinner shows again; after a change the list stays while it refreshes.
    setState((current) => (current.status === 'failed' ? { status: 'loading' } : current));
    setGeneration((n) => n + 1);
  }, []);
  // Failed while offline: loads again when the network is back (issue 25).
  useRetryWhenOnline(reload, state.status === 'failed');
  return { state, reload };
}
