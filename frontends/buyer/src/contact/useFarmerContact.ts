// The farmer's contact card (profile service) for the Contact Farmer modal.
import { useEffect, useState } from 'react';
import { useApi, useToast } from '@tuber/ui';
import { farmerContactPath, type FarmerContact } from '../catalog/types.js';

export type ContactState = { status: 'loading' } | { status: 'ready'; contact: FarmerContact } | { status: 'error'; message: string };

export function useFarmerContact(farmerId: string): ContactState {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<ContactState>({ status: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    api
      .get<FarmerContact>(farmerContactPath(farmerId), { signal: abort.signal })
      .then((contact) => setState({ status: 'ready', contact }))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        toast.error(`Error fetching farmer: ${message}`);
        setState({ status: 'error', message });
      });
    return () => abort.abort();
  }, [api, toast, farmerId]);

  return state;
}
