// The farmer's inbox of order requests (issue 12), as pure rules: which tab shows which statuses, what a
// status lets the farmer do, the accept body (a lowered quantity needs a reason), and the texts a request
// is shown and shared with (WhatsApp). InboxPage and its components call these; test/unit/inbox.test.ts
// holds them to the contract (contracts/src/orders.ts).
import type { AcceptOrder, OrderHistoryEntry, OrderLine, OrderRequest, OrderStatus } from '@tuber/contracts';
import { readAmount } from '../add-product/productForm.js';
import { momentWords, problemText } from '@tuber/ui';
import { tr } from '../i18n/t.js';
import { nairaText as naira, priceWithUnit, quantityText } from '../i18n/words.js';

// ---------- Tabs ----------

export const INBOX_TABS = ['new', 'accepted', 'closed', 'all'] as const;
export type InboxTab = (typeof INBOX_TABS)[number];

/** A tab's name in the farmer's language: "New", "Accepted", "Closed", "All". */
export const tabLabel = (tab: InboxTab): string => tr(`inbox.tab.${tab}`);

/** The statuses each tab lists; `all` asks for no status at all. */
export const TAB_STATUSES: Record<InboxTab, readonly OrderStatus[]> = {
  new: ['sent'],
  accepted: ['accepted'],
  closed: ['declined', 'fulfilled', 'cancelled'],
  all: [],
};

export const isInboxTab = (value: unknown): value is InboxTab => (INBOX_TABS as readonly unknown[]).includes(value);

/** How many requests one page asks for. */
export const PAGE_SIZE = 20;
/** Pages a tab filtered here (Closed) reads at most for one "Load more" before showing what it found. */
export const MAX_PAGES_PER_LOAD = 5;

/**
 * GET path of one page of a tab: newest first (the service's order), keyset-paginated by `cursor`. The
 * service filters by one status; a tab of several (Closed) reads every request, bigger pages, and keeps its
 * own here (`belongsTo`).
 */
export function requestsPath(tab: InboxTab, cursor?: string | null): string {
  const query = new URLSearchParams();
  const statuses = TAB_STATUSES[tab];
  if (statuses.length === 1) query.set('status', statuses[0]!);
  query.set('limit', String(statuses.length > 1 ? 50 : PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  return `/orders/requests?${query.toString()}`;
}

/** Whether a request (after an action) still belongs in the tab being shown. */
export const belongsTo = (tab: InboxTab, status: OrderStatus): boolean => tab === 'all' || TAB_STATUSES[tab].includes(status);

/** What an empty tab says (New and All alike). */
export const emptyTabText = (tab: InboxTab): string => tr(`inbox.empty.${tab === 'all' ? 'new' : tab}`);

// ---------- Status and actions ----------

/** "New", "Accepted", "Declined", "Fulfilled", "Cancelled". */
export const statusLabel = (status: OrderStatus): string => tr(`inbox.status.${status}`);

export const FARMER_ACTIONS = ['accept', 'decline', 'fulfil', 'cancel'] as const;
export type FarmerAction = (typeof FARMER_ACTIONS)[number];

/**
 * What the farmer may do with a request in a status (the service's state machine decides; this only offers
 * the buttons): a new request is accepted or declined, an accepted one later fulfilled or cancelled, and a
 * closed one is only read.
 */
export function allowedActions(status: OrderStatus): readonly FarmerAction[] {
  switch (status) {
    case 'sent':
      return ['accept', 'decline'];
    case 'accepted':
      return ['fulfil', 'cancel'];
    default:
      return [];
  }
}

/** The POST path of an action on a request. */
export function actionPath(requestId: string, action: FarmerAction | 'read'): string {
  return `/orders/requests/${encodeURIComponent(requestId)}/${action}`;
}

/** Whether an action needs a reason (asked in its confirm step). */
export const needsReason = (action: FarmerAction): action is 'decline' | 'cancel' => action === 'decline' || action === 'cancel';

// ---------- Accept ----------

/** What the farmer typed per line (product id → text of the quantity input), prefilled with the asked quantity. */
export type AcceptQuantities = Record<string, string>;

export const initialQuantities = (lines: readonly OrderLine[]): AcceptQuantities =>
  Object.fromEntries(lines.map((line) => [line.product_id, String(line.quantity)]));

export const REASON_REQUIRED_WHEN_LOWERED = 'Say why you are accepting less than the buyer asked for (the buyer reads it).';
export const REASON_REQUIRED = 'Give a reason (the buyer reads it).';
export const REASON_TOO_LONG = 'Keep the reason to 300 characters.';
export const REASON_MAX_LENGTH = 300;

export type AcceptCheck =
  { ok: true; body: AcceptOrder; lowered: boolean } | { ok: false; lineProblems: Record<string, string>; reasonProblem?: string };

/**
 * The body of POST …/accept from the quantities typed: each at most 2 decimals, above 0 and not above what
 * was asked. Lines accepted as asked are left out (the contract accepts them as asked); when any is lowered
 * the lowered lines and a reason go, and the reason is required.
 */
export function acceptBody(lines: readonly OrderLine[], typed: AcceptQuantities, reason: string): AcceptCheck {
  const lineProblems: Record<string, string> = {};
  const lowered: { product_id: string; quantity: number }[] = [];
  for (const line of lines) {
    const text = typed[line.product_id] ?? String(line.quantity);
    const quantity = text.trim() === '' ? null : readAmount(text);
    if (quantity === null) lineProblems[line.product_id] = tr('inbox.check.quantity');
    else if (quantity <= 0) lineProblems[line.product_id] = tr('inbox.check.above_zero');
    else if (quantity > line.quantity)
      lineProblems[line.product_id] = tr('inbox.check.at_most', { quantity: quantityText(line.quantity, line.unit) });
    else if (quantity < line.quantity) lowered.push({ product_id: line.product_id, quantity });
  }
  const why = reason.trim();
  let reasonProblem: string | undefined;
  if (lowered.length > 0 && why === '') reasonProblem = tr('inbox.check.reason_lowered');
  else if (why.length > REASON_MAX_LENGTH) reasonProblem = tr('inbox.check.reason_long');
  if (Object.keys(lineProblems).length > 0 || reasonProblem) {
    return { ok: false, lineProblems, ...(reasonProblem ? { reasonProblem } : {}) };
  }
  if (lowered.length === 0) return { ok: true, body: why ? { reason: why } : {}, lowered: false };
  return { ok: true, body: { lines: lowered, reason: why }, lowered: true };
}

/** The reason of a decline or cancel: required, at most 300 characters. */
export function reasonProblem(reason: string): string | null {
  const why = reason.trim();
  if (why === '') return tr('inbox.check.reason_required');
  if (why.length > REASON_MAX_LENGTH) return tr('inbox.check.reason_long');
  return null;
}

// ---------- Texts ----------

/**
 * "Error: {message}" for a list that did not load; a gateway that found no orders service (502–504) or no
 * network says so in words, rather than "Request failed with status 502".
 */
export function loadFailedText(error: { statusCode?: number; message?: string; code?: string } | null | undefined): string {
  const status = error?.statusCode;
  if (status === 0 || status === 502 || status === 503 || status === 504) return tr('inbox.not_answering');
  return tr('common.error', { message: error ? problemText(error) : tr('common.unknown_error') });
}

export const nairaText = naira;

/** The quantity that counts: what was accepted, else what was asked. */
export const lineQuantity = (line: OrderLine): number => line.accepted_quantity ?? line.quantity;

/** "White yam: 10 kg at ₦2,500.00 per kg" (the quantity accepted once accepted). */
export function lineText(line: OrderLine): string {
  return tr('inbox.line_text', {
    product: line.product_name,
    quantity: quantityText(lineQuantity(line), line.unit),
    price: priceWithUnit(line.price, line.unit),
  });
}

/**
 * The message the farmer's "Chat on WhatsApp" starts with: the request number, each product with its
 * quantity and unit (and price), and the total, so the buyer knows at once which request it is about.
 */
export function whatsAppText(request: Pick<OrderRequest, 'number' | 'buyer_name' | 'business_name' | 'lines' | 'total'>): string {
  const lines = request.lines.map((line) => `- ${lineText(line)}`).join('\n');
  const hello = request.buyer_name ? tr('inbox.whatsapp_hello_name', { name: request.buyer_name }) : tr('inbox.whatsapp_hello');
  const me = request.business_name || tr('inbox.whatsapp_me');
  return tr('inbox.whatsapp_text', { hello, me, number: request.number, lines, total: nairaText(request.total) });
}

/** "Accepted by you", "Cancelled by the buyer". */
export const historyText = (entry: Pick<OrderHistoryEntry, 'status' | 'by'>): string =>
  tr(`inbox.history.${entry.status}`, { who: tr(`inbox.who.${entry.by}`) });

/**
 * A moment of the history for people: "25 Nov 2026, 14:03" in Lagos time, whatever the phone's time zone, so
 * the farmer and the buyer read the same time for the same request (issue 25).
 */
export const momentText = (iso: string): string => momentWords(iso);

/** "tel:+2348031234567" from E.164 digits. */
export const telHref = (e164: string): string => `tel:+${e164.replace(/\D/g, '')}`;

/** Where the farmer's one public answer to a request's review goes (issue 26). */
export const reviewAnswerPath = (requestId: string) => `/orders/requests/${encodeURIComponent(requestId)}/review/answer`;
