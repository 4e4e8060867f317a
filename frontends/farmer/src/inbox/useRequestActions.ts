// The farmer's actions on requests (accept, decline, mark fulfilled, cancel) and opening one (…/read): the
// POST, the spec-style toast, the request put back in the list as the service answered it, and the
// shell's unread badge asked to look again. A 409 (the request moved on meanwhile, e.g. the buyer
// cancelled it) shows the service's message and reloads the list.
import { useCallback, useState } from 'react';
import type { AcceptOrder, OrderRequest, UnreadCount, WithReason } from '@tuber/contracts';
import { ApiError, refreshCounter, setCounter, useApi, useToast } from '@tuber/shell-contract';
import {
  acceptFailedMessage,
  cancelFailedMessage,
  declineFailedMessage,
  fulfilFailedMessage,
  messageOf,
  offlineActionMessage,
  requestAcceptedMessage,
  requestCancelledMessage,
  requestDeclinedMessage,
  requestFulfilledMessage,
} from '../shared/messages.js';
import { isOffline } from '../shared/network.js';
import { actionPath, type FarmerAction } from './inbox.js';

const DONE: Record<FarmerAction, () => string> = {
  accept: requestAcceptedMessage,
  decline: requestDeclinedMessage,
  fulfil: requestFulfilledMessage,
  cancel: requestCancelledMessage,
};
const FAILED: Record<FarmerAction, (message: string) => string> = {
  accept: acceptFailedMessage,
  decline: declineFailedMessage,
  fulfil: fulfilFailedMessage,
  cancel: cancelFailedMessage,
};

/** Runs an action; resolves true when it was done. */
export type RunAction = (request: OrderRequest, action: FarmerAction, body?: AcceptOrder | WithReason) => Promise<boolean>;

const isRequest = (value: unknown): value is OrderRequest =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as OrderRequest).request_id === 'string' &&
  Array.isArray((value as OrderRequest).lines);

interface Options {
  replace: (request: OrderRequest) => void;
  reload: () => void;
}

export function useRequestActions({ replace, reload }: Options) {
  const api = useApi();
  const toast = useToast();
  // request id → the action running on it
  const [busy, setBusy] = useState<Record<string, FarmerAction>>({});

  const run: RunAction = useCallback(
    async (request, action, body) => {
      if (isOffline()) {
        toast.error(offlineActionMessage());
        return false;
      }
      setBusy((current) => ({ ...current, [request.request_id]: action }));
      try {
        const answer = await api.post<unknown>(actionPath(request.request_id, action), body ?? {});
        toast.success(DONE[action]());
        if (isRequest(answer)) replace({ ...answer, unread: false });
        else reload();
        return true;
      } catch (error) {
        toast.error(FAILED[action](messageOf(error)));
        if (error instanceof ApiError && (error.statusCode === 409 || error.statusCode === 404)) reload();
        return false;
      } finally {
        setBusy(({ [request.request_id]: _done, ...rest }) => rest);
        refreshCounter('unread');
      }
    },
    [api, toast, replace, reload],
  );

  /** Opening a request reads it: the service clears its unread mark, the shell's badge counts one less. */
  const open = useCallback(
    (request: OrderRequest) => {
      if (!request.unread) return;
      replace({ ...request, unread: false });
      api
        .post<UnreadCount | undefined>(actionPath(request.request_id, 'read'), {})
        // The service answers the count left: the badge shows it at once, and the shell checks again.
        .then((left) => {
          if (typeof left?.count === 'number') setCounter('unread', left.count);
          refreshCounter('unread');
        })
        // Not read on the server: the mark comes back with the next load; nothing for the farmer to do now.
        .catch(() => replace(request));
    },
    [api, replace],
  );

  return { busy, run, open };
}
