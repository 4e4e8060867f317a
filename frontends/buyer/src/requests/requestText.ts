// What the buyer reads about a request on My requests (issue 12), as pure functions.
import { tr, type T } from '../i18n/t.js';
import { dayText, nairaText as naira, priceWords, quantityWords } from '../i18n/words.js';
import type { OrderHistoryEntry, OrderLine, OrderRequest, OrderStatus } from '../orders/types.js';
import { momentWords } from '@tuber/ui';

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

/** A status in the current language ("Sent", "Declined"…). */
export const statusText = (status: OrderStatus, t: T = tr): string => t('requests.status', { status });

/** "Sent by you", "Declined by the farmer" (ENTRY_VERB in English). */
export const historyText = (entry: Pick<OrderHistoryEntry, 'status' | 'by'>, t: T = tr): string =>
  ENTRY_VERB[entry.status]
    ? t('requests.history-entry', { status: entry.status, by: entry.by === 'buyer' ? 'buyer' : 'farmer' })
    : entry.status;

/** "25 Nov 2026, 15:02" in Lagos time, in the current language (the same words as the farmer's inbox). */
export const dateTimeText = (iso: string): string => momentWords(iso);

/** "Pickup from the farm on 28 Nov 2026" / "Delivery to 12 Oba Road, Osogbo on 28 Nov 2026". */
export function fulfilmentText(request: Pick<OrderRequest, 'fulfilment' | 'address' | 'preferred_date'>, t: T = tr): string {
  const date = dayText(request.preferred_date);
  if (request.fulfilment !== 'delivery') return t('requests.pickup-on', { date });
  return request.address ? t('requests.delivery-to', { address: request.address, date }) : t('requests.delivery-on', { date });
}

/** "3 heaps × ₦2,000.00 per heap", or "2 of 3 heaps accepted × …" when the farmer lowered the quantity. */
export function lineText(line: OrderLine, t: T = tr): string {
  const price = priceWords(line.price, line.unit, t);
  if (typeof line.accepted_quantity === 'number' && line.accepted_quantity !== line.quantity) {
    return t('requests.line-accepted', {
      accepted: quantityWords(line.accepted_quantity, line.unit, t),
      asked: quantityWords(line.quantity, line.unit, t),
      price,
    });
  }
  return t('requests.line', { quantity: quantityWords(line.quantity, line.unit, t), price });
}

export const nairaText = naira;
