// Sending the cart as order requests (issue 12): a form per farmer, checks before sending, one POST per
// farmer, the answer shown where it belongs (sent lines leave the cart; refused lines say why on the line).
import { useCallback, useEffect, useRef, useState } from 'react';
import { displayPhone, nigerianE164 } from '@tuber/contracts';
import { useApi, useAuth, useSession, useToast } from '@tuber/shell-contract';
import { problemText, todayCalendarDay } from '@tuber/ui';
import { problemViews, type LineProblemView } from '../orders/problems.js';
import {
  buildOrderRequest,
  groupTitle,
  hasErrors,
  initialRequestForm,
  sendableItems,
  validateRequestForm,
  type FarmerGroup,
  type RequestForm,
  type RequestFormErrors,
  type RequestFormField,
} from '../orders/requestForm.js';
import { newRequestId, sendOrderRequest } from '../orders/sendRequest.js';
import type { OrderRequest } from '../orders/types.js';
import { useBuyerT } from '../i18n/t.js';
import type { LineCheck } from './cartCheck.js';
import { updateCart } from './cartStore.js';
import { rememberedPhone, rememberPhone } from './rememberedPhone.js';

/** The id of a form field, for labels and for focusing the first one that needs fixing. */
export const fieldId = (farmerId: string, field: RequestFormField | 'fulfilment') => `request-${farmerId}-${field}`;

const FIELD_ORDER: RequestFormField[] = ['lines', 'address', 'preferred_date', 'note', 'phone'];

/** The session user's phone as people write it, for the form's first value. */
function sessionPhone(phone: string | undefined): string {
  if (!phone) return '';
  const e164 = nigerianE164(phone);
  return e164 ? displayPhone(e164) : phone;
}

/** A request the orders service took: who it went to, its number, and the request for the WhatsApp text. */
export interface SentRequest {
  farmerId: string;
  business: string;
  request: OrderRequest | undefined;
}

export interface SendRequests {
  formOf(farmerId: string): RequestForm;
  errorsOf(farmerId: string): RequestFormErrors;
  setForm(farmerId: string, change: Partial<RequestForm>): void;
  /** Problems the orders service found, by product id. */
  problems: ReadonlyMap<string, LineProblemView>;
  clearProblem(productId: string): void;
  /** Requests sent from this page, newest first: the confirmation shown in place of the sent lines (issue 25). */
  sent: readonly SentRequest[];
  dismissSent(farmerId: string): void;
  /** Why the last send to this farmer was refused for good (the farmer blocked the buyer, issue 24). */
  blockedNotice(farmerId: string): string | undefined;
  sending: ReadonlySet<string>;
  send(group: FarmerGroup): Promise<boolean>;
  sendAll(groups: readonly FarmerGroup[]): Promise<void>;
}

export function useSendRequests(checks: ReadonlyMap<string, LineCheck>, recheck: (productIds: readonly string[]) => void): SendRequests {
  const api = useApi();
  const auth = useAuth();
  const toast = useToast();
  const t = useBuyerT();
  const session = useSession();
  const owner = session.status === 'signed-in' ? session.user.id : undefined;
  const fromSession = session.status === 'signed-in' ? session.user.phone : undefined;
  // Offline, the kept session has no phone (on purpose): the number kept for this buyer instead (issue 25).
  const phone = sessionPhone(fromSession ?? rememberedPhone(owner));
  useEffect(() => {
    if (fromSession) rememberPhone(owner, fromSession);
  }, [owner, fromSession]);
  const [forms, setForms] = useState<ReadonlyMap<string, RequestForm>>(() => new Map());
  const [errors, setErrors] = useState<ReadonlyMap<string, RequestFormErrors>>(() => new Map());
  const [problems, setProblems] = useState<ReadonlyMap<string, LineProblemView>>(() => new Map());
  const [sending, setSending] = useState<ReadonlySet<string>>(() => new Set());
  const [blocked, setBlocked] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [sent, setSent] = useState<readonly SentRequest[]>([]);
  // A request id per farmer, kept until the request is known sent or refused: a retry after a lost
  // answer carries the same id, so the orders service does not take it twice.
  const requestIds = useRef(new Map<string, string>());
  const formsRef = useRef(forms);
  formsRef.current = forms;

  const formOf = useCallback((farmerId: string) => forms.get(farmerId) ?? initialRequestForm(phone, todayCalendarDay()), [forms, phone]);
  const currentForm = (farmerId: string) => formsRef.current.get(farmerId) ?? initialRequestForm(phone, todayCalendarDay());

  const setForm = useCallback(
    (farmerId: string, change: Partial<RequestForm>) => {
      setForms((previous) =>
        new Map(previous).set(farmerId, { ...(previous.get(farmerId) ?? initialRequestForm(phone, todayCalendarDay())), ...change }),
      );
      // A field the buyer is fixing stops showing its message.
      setErrors((previous) => {
        const current = previous.get(farmerId);
        if (!current) return previous;
        const next: RequestFormErrors = { ...current };
        for (const key of Object.keys(change)) delete next[key as RequestFormField];
        if (change.fulfilment === 'pickup') delete next.address;
        return new Map(previous).set(farmerId, next);
      });
    },
    [phone],
  );

  const clearProblem = useCallback((productId: string) => {
    setProblems((previous) => {
      if (!previous.has(productId)) return previous;
      const next = new Map(previous);
      next.delete(productId);
      return next;
    });
  }, []);

  const setSendingFor = (farmerId: string, on: boolean) =>
    setSending((previous) => {
      const next = new Set(previous);
      if (on) next.add(farmerId);
      else next.delete(farmerId);
      return next;
    });

  /** Checks one farmer's form; shows the messages and says whether it can go. */
  function check(group: FarmerGroup): boolean {
    const items = sendableItems(group.items, checks);
    const found = validateRequestForm(currentForm(group.farmer_id), todayCalendarDay(), items.length, t);
    setErrors((previous) => new Map(previous).set(group.farmer_id, found));
    return !hasErrors(found);
  }

  function focusFirstError(group: FarmerGroup) {
    const found = validateRequestForm(currentForm(group.farmer_id), todayCalendarDay(), sendableItems(group.items, checks).length, t);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) document.getElementById(fieldId(group.farmer_id, first))?.focus();
  }

  async function post(group: FarmerGroup): Promise<boolean> {
    const title = groupTitle(group);
    const items = sendableItems(group.items, checks);
    const requestId = requestIds.current.get(group.farmer_id) ?? newRequestId();
    requestIds.current.set(group.farmer_id, requestId);
    setSendingFor(group.farmer_id, true);
    try {
      const body = buildOrderRequest(group.farmer_id, items, currentForm(group.farmer_id), requestId);
      const outcome = await sendOrderRequest(
        { api, getAccessToken: auth?.getAccessToken ? () => auth.getAccessToken!() : undefined },
        body,
      );
      if (outcome.kind === 'sent') {
        requestIds.current.delete(group.farmer_id);
        // The number the buyer just sent with is the one to offer next time, offline too.
        rememberPhone(owner, body.phone);
        const sentIds = new Set(items.map((item) => item.product_id));
        updateCart((cart) => cart.filter((item) => !sentIds.has(item.product_id)));
        setForms((previous) => {
          const next = new Map(previous);
          next.delete(group.farmer_id);
          return next;
        });
        setProblems((previous) => new Map([...previous].filter(([id]) => !sentIds.has(id))));
        setBlocked((previous) => {
          if (!previous.has(group.farmer_id)) return previous;
          const next = new Map(previous);
          next.delete(group.farmer_id);
          return next;
        });
        const business = outcome.request?.business_name || title;
        // Said on the page, not in a toast that covers the header and goes (issue 25): the farmer, the number,
        // what happens next and WhatsApp, until the buyer closes it or leaves.
        const confirmation: SentRequest = { farmerId: group.farmer_id, business, request: outcome.request };
        setSent((previous) => [confirmation, ...previous.filter((s) => s.farmerId !== group.farmer_id)]);
        return true;
      }
      if (outcome.kind === 'refused') {
        // Nothing was kept: the next try is a new request.
        requestIds.current.delete(group.farmer_id);
        const views = problemViews(outcome.refused, items, t);
        setProblems((previous) => {
          const next = new Map(previous);
          for (const item of group.items) next.delete(item.product_id);
          for (const [id, view] of views) next.set(id, view);
          return next;
        });
        recheck([...views.keys()]);
        toast.error(problemText(outcome.refused));
        return false;
      }
      if (outcome.kind === 'blocked') {
        // Said in the buyer's language and kept beside the form (a toast alone goes away): nothing was sent.
        requestIds.current.delete(group.farmer_id);
        const notice = t('request.blocked', { business: title });
        setBlocked((previous) => new Map(previous).set(group.farmer_id, notice));
        toast.error(notice);
        return false;
      }
      if (outcome.definite) requestIds.current.delete(group.farmer_id);
      toast.error(t('request.failed', { business: title, message: outcome.message }));
      return false;
    } finally {
      setSendingFor(group.farmer_id, false);
    }
  }

  async function send(group: FarmerGroup): Promise<boolean> {
    if (sending.has(group.farmer_id)) return false;
    if (!check(group)) {
      focusFirstError(group);
      return false;
    }
    return post(group);
  }

  async function sendAll(groups: readonly FarmerGroup[]): Promise<void> {
    const idle = groups.filter((group) => !sending.has(group.farmer_id));
    // A farmer whose lines are all sold out or gone has nothing to send; that does not hold back the others.
    const withLines = idle.filter((group) => sendableItems(group.items, checks).length > 0);
    const ready = withLines.length > 0 ? withLines : idle;
    // Every form is checked first, so nothing is sent while another farmer's form still needs fixing.
    const failing = ready.filter((group) => !check(group));
    if (failing.length > 0) {
      focusFirstError(failing[0]!);
      toast.error(
        failing.length === 1
          ? t('request.check-one', { business: groupTitle(failing[0]!) })
          : t('request.check-many', {
              businesses: failing.map(groupTitle).reduce((first, second) => t('request.and', { first, second })),
            }),
      );
      return;
    }
    // One after another: gentler on a phone's connection, and each answer is shown as it comes.
    for (const group of ready) await post(group);
  }

  return {
    formOf,
    errorsOf: (farmerId) => errors.get(farmerId) ?? {},
    setForm,
    problems,
    clearProblem,
    sent,
    dismissSent: (farmerId) => setSent((previous) => previous.filter((s) => s.farmerId !== farmerId)),
    blockedNotice: (farmerId) => blocked.get(farmerId),
    sending,
    send,
    sendAll,
  };
}
