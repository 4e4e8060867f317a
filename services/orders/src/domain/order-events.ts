// The event each transition records in the request's outbox (contracts/src/events.ts Order*).
// Message id "<request_id>:<revision>": one per transition, so a re-publish is de-duplicated.
import { OrderAccepted, OrderCancelled, OrderDeclined, OrderFulfilled, OrderSent } from '@tuber/contracts';
import { pendingEvent, type PendingEvent } from '@tuber/kit';
import type { Party } from './state-machine.js';
import type { StoredLine } from './present.js';

export interface EventSource {
  request_id: string;
  number: string;
  buyer_id: string;
  farmer_id: string;
  lines: StoredLine[];
}

/** Lines with the quantity that holds stock: asked (sent, declined, cancelled before accepting) or accepted. */
const eventLines = (lines: readonly StoredLine[], accepted: boolean) =>
  lines.map((line) => ({
    product_id: line.product_id,
    unit: line.unit,
    quantity: accepted ? (line.accepted_quantity ?? line.quantity) : line.quantity,
    price_kobo: line.price_kobo,
  }));

export type Happened =
  | { status: 'sent' }
  | { status: 'accepted'; reason?: string | undefined }
  | { status: 'declined'; reason: string }
  | { status: 'fulfilled' }
  | { status: 'cancelled'; reason: string; by: Party; wasAccepted: boolean };

export function orderEvent(request: EventSource, revision: number, at: Date, happened: Happened): PendingEvent {
  const base = {
    request_id: request.request_id,
    number: request.number,
    buyer_id: request.buyer_id,
    farmer_id: request.farmer_id,
    revision,
    at: at.toISOString(),
  };
  const id = `${request.request_id}:${revision}`;
  switch (happened.status) {
    case 'sent':
      return pendingEvent(OrderSent, { ...base, lines: eventLines(request.lines, false) }, id);
    case 'accepted':
      return pendingEvent(
        OrderAccepted,
        { ...base, lines: eventLines(request.lines, true), ...(happened.reason ? { reason: happened.reason } : {}) },
        id,
      );
    case 'declined':
      return pendingEvent(OrderDeclined, { ...base, lines: eventLines(request.lines, false), reason: happened.reason }, id);
    case 'fulfilled':
      return pendingEvent(OrderFulfilled, { ...base, lines: eventLines(request.lines, true) }, id);
    case 'cancelled':
      return pendingEvent(
        OrderCancelled,
        {
          ...base,
          lines: eventLines(request.lines, happened.wasAccepted),
          reason: happened.reason,
          by: happened.by,
          was_accepted: happened.wasAccepted,
        },
        id,
      );
  }
}
