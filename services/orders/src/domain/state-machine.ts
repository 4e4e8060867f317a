// The life of an order request (issue 12, ADR 0031), in one place: which action moves a request
// from which status to which, who may take it and what it needs. Pure: no I/O, so every
// transition, legal and illegal, is tested on its own (test/unit/state-machine.test.ts).
//
//   sent ──accept (farmer)──▶ accepted ──fulfil (farmer)──▶ fulfilled
//    │  ╲                        │
//    │   decline (farmer, reason)│ cancel (either, reason)
//    │     ▼                     ▼
//    │   declined            cancelled
//    └──cancel (buyer, reason)──▶ cancelled
import type { OrderStatus } from '@tuber/contracts';
import { problem, type Problem } from '@tuber/kit';

export type Party = 'buyer' | 'farmer';
export type OrderAction = 'accept' | 'decline' | 'fulfil' | 'cancel';

export interface Transition {
  action: OrderAction;
  from: OrderStatus;
  to: OrderStatus;
  /** Who may take it. */
  by: readonly Party[];
  /** `always`: a reason is needed; `lowered`: only when an accepted quantity is below the asked one. */
  reason: 'always' | 'lowered' | 'never';
}

/** Every legal transition. Anything not here is refused. */
export const TRANSITIONS: readonly Transition[] = [
  { action: 'accept', from: 'sent', to: 'accepted', by: ['farmer'], reason: 'lowered' },
  { action: 'decline', from: 'sent', to: 'declined', by: ['farmer'], reason: 'always' },
  { action: 'cancel', from: 'sent', to: 'cancelled', by: ['buyer'], reason: 'always' },
  { action: 'fulfil', from: 'accepted', to: 'fulfilled', by: ['farmer'], reason: 'never' },
  { action: 'cancel', from: 'accepted', to: 'cancelled', by: ['buyer', 'farmer'], reason: 'always' },
];

/** Statuses nothing leaves. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['declined', 'fulfilled', 'cancelled'];

/** Statuses whose accepted quantities hold stock (taken off the catalog's stock, or about to be), in the machine's order (stock.ts reads them in this order). */
export const HOLDING_STATUSES: readonly OrderStatus[] = ['accepted', 'fulfilled'];

export type Verdict =
  | { ok: true; transition: Transition }
  /** 403: this party may never take this action; 409: not from this status (or not any more). */
  | { ok: false; status: 400 | 403 | 409; problem: Problem };

/** "accept it", "mark a request fulfilled", … */
const verb = (action: OrderAction, object: string) => (action === 'fulfil' ? `mark ${object} fulfilled` : `${action} ${object}`);

const STATE_WORDS: Record<OrderStatus, string> = {
  sent: 'is waiting for the farmer',
  accepted: 'is already accepted',
  declined: 'was declined',
  fulfilled: 'was already fulfilled',
  cancelled: 'was cancelled',
};

/** What can still be done from a status, for the 409 message. */
function whatNext(from: OrderStatus, by: Party): string {
  if (FINAL_STATUSES.includes(from)) {
    return by === 'buyer'
      ? 'nothing more can change on it; send a new request if you still want the produce.'
      : 'nothing more can change on it.';
  }
  const possible = TRANSITIONS.filter((t) => t.from === from && t.by.includes(by)).map((t) => verb(t.action, 'it'));
  if (possible.length === 0) return by === 'buyer' ? 'wait for the farmer to answer.' : 'nothing more can be done on it.';
  return `you can now ${possible.join(' or ')}.`;
}

/**
 * May `by` take `action` on a request in status `from`? `reason` is the one given (trimmed);
 * `lowered` says whether an accept lowers any quantity.
 */
export function decide(
  number: string,
  from: OrderStatus,
  action: OrderAction,
  by: Party,
  options: { reason?: string | undefined; lowered?: boolean } = {},
): Verdict {
  const refusal = neverTheirs(action, by);
  if (refusal) return { ok: false, status: 403, problem: refusal };
  const anyParty = TRANSITIONS.filter((t) => t.action === action);
  const transition = anyParty.find((t) => t.from === from);
  if (!transition) {
    return {
      ok: false,
      status: 409,
      problem: problem('ACTION_NOT_FROM_STATUS', `${number} ${STATE_WORDS[from]}, so you cannot ${verb(action, 'it')}; ${whatNext(from, by)}`, {
        number,
        status: from,
        action,
      }),
    };
  }
  if (!transition.by.includes(by)) {
    const who = transition.by.join(' or the ');
    return {
      ok: false,
      status: 409,
      problem: problem('ACTION_OTHER_PARTY', `${number} ${STATE_WORDS[from]}: only the ${who} can ${verb(action, 'it')} now; ${whatNext(from, by)}`, {
        number,
        status: from,
        action,
        party: transition.by.length === 1 ? transition.by[0]! : 'either',
      }),
    };
  }
  const reason = options.reason?.trim() ?? '';
  if (transition.reason === 'always' && !reason) {
    return {
      ok: false,
      status: 400,
      problem: problem('REASON_REQUIRED', `Give a reason to ${verb(action, number)}; the ${by === 'buyer' ? 'farmer' : 'buyer'} will see it.`, {
        number,
        action,
      }),
    };
  }
  if (transition.reason === 'lowered' && options.lowered && !reason) {
    return {
      ok: false,
      status: 400,
      problem: problem('REASON_FOR_LOWERED', `You lowered a quantity of ${number}: give a reason so the buyer knows why.`, { number }),
    };
  }
  return { ok: true, transition };
}

/** Why `by` may never take `action`, whatever the status (403), or undefined when they may sometimes. */
export function neverTheirs(action: OrderAction, by: Party): Problem | undefined {
  if (TRANSITIONS.some((t) => t.action === action && t.by.includes(by))) return undefined;
  return problem('ACTION_FARMER_ONLY', `Only the farmer can ${verb(action, 'a request')}.`, { action });
}

export interface AskedLine {
  product_id: string;
  product_name: string;
  quantity: number;
}

/**
 * The quantities an accept agrees to: a line left out is accepted as asked. Refuses (400) a product
 * not in the request, a product named twice, a quantity above the asked one or with more than two
 * decimals. `lowered` when any line is below what was asked.
 */
export function acceptedQuantities(
  asked: readonly AskedLine[],
  given: readonly { product_id: string; quantity: number }[] = [],
): { ok: true; quantities: Map<string, number>; lowered: boolean } | { ok: false; problem: Problem } {
  const quantities = new Map(asked.map((line) => [line.product_id, line.quantity]));
  const seen = new Set<string>();
  let lowered = false;
  for (const line of given) {
    const original = asked.find((a) => a.product_id === line.product_id);
    if (!original)
      return {
        ok: false,
        problem: problem(
          'ACCEPT_PRODUCT_UNKNOWN',
          `Product ${line.product_id} is not in this request; accept only the products the buyer asked for.`,
        ),
      };
    if (seen.has(line.product_id)) {
      const product = original.product_name;
      return { ok: false, problem: problem('ACCEPT_PRODUCT_TWICE', `${product} is given twice; give each product once.`, { product }) };
    }
    seen.add(line.product_id);
    if (!twoDecimalsOrLess(line.quantity) || line.quantity <= 0) {
      const product = original.product_name;
      return {
        ok: false,
        problem: problem('ACCEPT_QUANTITY_INVALID', `The quantity of ${product} must be above 0 with at most 2 decimals.`, { product }),
      };
    }
    if (line.quantity > original.quantity) {
      return {
        ok: false,
        problem: problem(
          'ACCEPT_ABOVE_ASKED',
          `You can accept at most the ${original.quantity} the buyer asked for of ${original.product_name}; ask the buyer to send a new request for more.`,
          { product: original.product_name, quantity: original.quantity },
        ),
      };
    }
    if (line.quantity < original.quantity) lowered = true;
    quantities.set(line.product_id, line.quantity);
  }
  return { ok: true, quantities, lowered };
}

export function twoDecimalsOrLess(value: number): boolean {
  return Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}
