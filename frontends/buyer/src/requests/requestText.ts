// What the buyer reads about a request on My requests (issue 12), as pure functions.
import { getLocale } from '@tuber/shell-contract';
import { tr, type T } from '../i18n/t.js';
import { dayText, intlLocale, nairaText as naira, priceWords, quantityWords } from '../i18n/words.js';
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

/** A status in the current language ("Sent", "Declined"…). */
export const statusText = (status: OrderStatus, t: T = tr): string => t('requests.status', { status });

/** "Sent by you", "Declined by the farmer" (ENTRY_VERB in English). */
export const historyText = (entry: Pick<OrderHistoryEntry, 'status' | 'by'>, t: T = tr): string =>
  ENTRY_VERB[entry.status]
    ? t('requests.history-entry', { status: entry.status, by: entry.by === 'buyer' ? 'buyer' : 'farmer' })
    : entry.status;

const DATE_TIME: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'Africa/Lagos',
};
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** "25 Nov 2026, 15:02" in Nigerian time (the month in the current language where the browser knows it). */
export function dateTimeText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const locale = getLocale() === 'en' ? 'en-NG' : intlLocale();
  let format = dateTimeFormats.get(locale);
  if (!format) dateTimeFormats.set(locale, (format = new Intl.DateTimeFormat(locale, DATE_TIME)));
  return format.format(date);
}

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
