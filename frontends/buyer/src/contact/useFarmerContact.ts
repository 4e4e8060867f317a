// The farmer's contact card (profile service) for the Contact Farmer modal, and the phone number of the
// "Chat on WhatsApp" buttons (issue 12).
import { useEffect, useState } from 'react';
import { useApi, useToast } from '@tuber/ui';
import { farmerContactPath, type FarmerContact } from '../catalog/types.js';

export type ContactState = { status: 'loading' } | { status: 'ready'; contact: FarmerContact } | { status: 'error'; message: string };

export interface FarmerContactOptions {
  /** No "Error fetching farmer" toast: for a button that is simply left out when the card cannot be had. */
  quiet?: boolean;
  /** False: do not fetch (yet). */
  enabled?: boolean;
}

export function useFarmerContact(farmerId: string, { quiet = false, enabled = true }: FarmerContactOptions = {}): ContactState {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<ContactState>({ status: 'loading' });

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    setState({ status: 'loading' });
    api
      .get<FarmerContact>(farmerContactPath(farmerId), { signal: abort.signal })
      .then((contact) => setState({ status: 'ready', contact }))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        if (!quiet) toast.error(`Error fetching farmer: ${message}`);
        setState({ status: 'error', message });
      });
    return () => abort.abort();
  }, [api, toast, farmerId, quiet, enabled]);

  return state;
}
