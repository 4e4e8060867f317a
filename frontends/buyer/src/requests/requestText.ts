// What the buyer reads about a request on My requests (issue 12), as pure functions.
import { calendarDayText, formatNaira, nairaToKobo, priceWithUnit, quantityText } from '@tuber/ui';
import type { OrderHistoryEntry, OrderLine, OrderRequest, OrderStatus } from '../orders/types.js';

export const STATUS_TEXT: Record<OrderStatus, string> = {
  sent: 'Sent',
  accepted: 'Accepted',
  declined: 'Declined',
  fulfilled: 'Fulfilled',
  cancelled: 'Cancelled',
};

/** The buyer may cancel a request the farmer has not declined or fulfilled yet. */
export const canCancel = (status: OrderStatus): boolean => status === 'sent' || status === 'accepted';

const ENTRY_VERB: Record<OrderStatus, string> = {
  sent: 'Sent',
  accepted: 'Accepted',
  declined: 'Declined',
  fulfilled: 'Marked fulfilled',
  cancelled: 'Cancelled',
};

/** "Sent by you", "Declined by the farmer". */
export const historyText = (entry: Pick<OrderHistoryEntry, 'status' | 'by'>): string =>
  `${ENTRY_VERB[entry.status] ?? entry.status} by ${entry.by === 'buyer' ? 'you' : 'the farmer'}`;

const dateTime = new Intl.DateTimeFormat('en-NG', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'Africa/Lagos',
});

/** "25 Nov 2026, 15:02" in Nigerian time. */
export function dateTimeText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** "Pickup from the farm on 28 Nov 2026" / "Delivery to 12 Oba Road, Osogbo on 28 Nov 2026". */
export function fulfilmentText(request: Pick<OrderRequest, 'fulfilment' | 'address' | 'preferred_date'>): string {
  const day = calendarDayText(request.preferred_date);
  return request.fulfilment === 'delivery'
    ? `Delivery${request.address ? ` to ${request.address}` : ''} on ${day}`
    : `Pickup from the farm on ${day}`;
}

/** "3 heaps × ₦2,000.00 per heap", or "2 of 3 heaps accepted × …" when the farmer lowered the quantity. */
export function lineText(line: OrderLine): string {
  const price = priceWithUnit(line.price, line.unit);
  if (typeof line.accepted_quantity === 'number' && line.accepted_quantity !== line.quantity) {
    return `${quantityText(line.accepted_quantity, line.unit)} accepted of ${quantityText(line.quantity, line.unit)} asked × ${price}`;
  }
  return `${quantityText(line.quantity, line.unit)} × ${price}`;
}

export const nairaText = (naira: number): string => formatNaira(nairaToKobo(naira));
