// The farmer's contact card (profile service) for the Contact Farmer modal, and the phone number of the
// "Chat on WhatsApp" buttons (issue 12).
import { useEffect, useState } from 'react';
import { useApi, useToast } from '@tuber/shell-contract';
import { farmerContactPath, type FarmerContact } from '../catalog/types.js';
import { tr, type T } from '../i18n/t.js';
import { problemText } from '@tuber/ui';

export type ContactState = { status: 'loading' } | { status: 'ready'; contact: FarmerContact } | { status: 'error'; message: string };

export interface FarmerContactOptions {
  /** No "Error fetching farmer" toast: for a button that is simply left out when the card cannot be had. */
  quiet?: boolean;
  /** False: do not fetch (yet). */
  enabled?: boolean;
  /** The translator of the page (for the toast). */
  t?: T;
}

export function useFarmerContact(farmerId: string, { quiet = false, enabled = true, t = tr }: FarmerContactOptions = {}): ContactState {
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
        const message = problemText(error);
        if (!quiet) toast.error(t('contact.error', { message }));
        setState({ status: 'error', message });
      });
    return () => abort.abort();
    // Not `t`: a change of language must not fetch the card again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, toast, farmerId, quiet, enabled]);

  return state;
}
