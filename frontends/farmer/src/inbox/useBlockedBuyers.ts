// The farmer's blocked buyers (issue 24): GET /api/orders/blocked-buyers once for the inbox, then
// PUT …/:buyerId to block the buyer of a request and DELETE …/:buyerId to unblock, each with a toast and
// the list put as the service answered. Blocking stops that buyer's new requests; those already sent stay.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BlockedBuyer, BlockedBuyers } from '@tuber/contracts';
import { useApi, useToast } from '@tuber/shell-contract';
import { tr } from '../i18n/t.js';
import { messageOf, offlineActionMessage } from '../shared/messages.js';
import { isOffline } from '../shared/network.js';

export const blockedBuyerPath = (buyerId: string) => `/orders/blocked-buyers/${encodeURIComponent(buyerId)}`;

export type BlockedState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; buyers: BlockedBuyer[] };

export interface BlockedBuyersApi {
  state: BlockedState;
  /** Buyer ids being blocked or unblocked now. */
  busy: ReadonlySet<string>;
  isBlocked: (buyerId: string) => boolean;
  block: (buyer: { buyer_id: string; buyer_name: string }) => Promise<boolean>;
  unblock: (buyer: { buyer_id: string; buyer_name: string }) => Promise<boolean>;
  reload: () => void;
}

/** The newest block first, one entry per buyer. */
export function withBlock(buyers: readonly BlockedBuyer[], added: BlockedBuyer): BlockedBuyer[] {
  return [added, ...buyers.filter((b) => b.buyer_id !== added.buyer_id)];
}

/** `enabled` false (a buyer about to be sent away from the inbox): nothing is asked. */
export function useBlockedBuyers(enabled = true): BlockedBuyersApi {
  const api = useApi();
  const toast = useToast();
  const [state, setState] = useState<BlockedState>({ status: 'loading' });
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    if (!enabled) return;
    const call = ++latest.current;
    api
      .get<BlockedBuyers>('/orders/blocked-buyers')
      .then((answer) => {
        if (call === latest.current) setState({ status: 'loaded', buyers: answer?.items ?? [] });
      })
      .catch((error: unknown) => {
        if (call === latest.current) setState({ status: 'failed', message: tr('blocked.load_failed', { message: messageOf(error) }) });
      });
  }, [api, generation, enabled]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setGeneration((n) => n + 1);
  }, []);

  const mark = (buyerId: string, on: boolean) =>
    setBusy((current) => {
      const next = new Set(current);
      if (on) next.add(buyerId);
      else next.delete(buyerId);
      return next;
    });

  /** One block or unblock: refused at once offline, the buyer's buttons busy meanwhile, the outcome said in a toast. */
  const change = useCallback(
    async (buyerId: string, work: () => Promise<string>, failed: 'blocked.block_failed' | 'blocked.unblock_failed') => {
      if (isOffline()) {
        toast.error(offlineActionMessage());
        return false;
      }
      mark(buyerId, true);
      try {
        toast.success(await work());
        return true;
      } catch (error) {
        toast.error(tr(failed, { message: messageOf(error) }));
        return false;
      } finally {
        mark(buyerId, false);
      }
    },
    [toast],
  );

  const block = useCallback(
    (buyer: { buyer_id: string; buyer_name: string }) =>
      change(
        buyer.buyer_id,
        async () => {
          const answer = await api.put<BlockedBuyer>(blockedBuyerPath(buyer.buyer_id), {});
          const added: BlockedBuyer = answer?.buyer_id ? answer : { ...buyer, blocked_at: new Date().toISOString() };
          setState((current) => (current.status === 'loaded' ? { status: 'loaded', buyers: withBlock(current.buyers, added) } : current));
          return tr('blocked.blocked', { buyer: added.buyer_name });
        },
        'blocked.block_failed',
      ),
    [api, change],
  );

  const unblock = useCallback(
    (buyer: { buyer_id: string; buyer_name: string }) =>
      change(
        buyer.buyer_id,
        async () => {
          await api.delete(blockedBuyerPath(buyer.buyer_id));
          setState((current) =>
            current.status === 'loaded' ? { status: 'loaded', buyers: current.buyers.filter((b) => b.buyer_id !== buyer.buyer_id) } : current,
          );
          return tr('blocked.unblocked', { buyer: buyer.buyer_name });
        },
        'blocked.unblock_failed',
      ),
    [api, change],
  );

  const isBlocked = useCallback(
    (buyerId: string) => state.status === 'loaded' && state.buyers.some((b) => b.buyer_id === buyerId),
    [state],
  );

  return { state, busy, isBlocked, block, unblock, reload };
}
