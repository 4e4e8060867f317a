// Sending the cart as order requests (issue 12), as pure rules: the cart's lines grouped by farmer (one
// request each), the request form and its checks, and the body of POST /api/orders/requests.
import { nigerianE164 } from '@tuber/contracts';
import { tr, type T } from '../i18n/t.js';
import { dayText } from '../i18n/words.js';
import type { Cart, CartItem } from '../cart/cart.js';
import type { LineCheck } from '../cart/cartCheck.js';
import { ORDER_LIMITS, type Fulfilment, type NewOrderRequest } from './types.js';

export interface FarmerGroup {
  farmer_id: string;
  /** From the catalog's answer for one of the lines; null until one is known. */
  business_name: string | null;
  items: CartItem[];
}

/** The cart's lines by farmer, farmers in the order their first line was added, lines in cart order. */
export function groupByFarmer(cart: Cart, businessNames: ReadonlyMap<string, string> = new Map()): FarmerGroup[] {
  const groups = new Map<string, FarmerGroup>();
  for (const item of cart) {
    let group = groups.get(item.farmer_id);
    if (!group) {
      group = { farmer_id: item.farmer_id, business_name: businessNames.get(item.farmer_id) ?? null, items: [] };
      groups.set(item.farmer_id, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}

/** "Ada Farms", or a stand-in while the catalog has not answered. */
export const groupTitle = (group: Pick<FarmerGroup, 'business_name'>): string => group.business_name ?? tr('common.farmer');

/**
 * The lines that go into the request: all but those the cart already knows cannot be had (sold out, next
 * harvest, removed by the farmer). A changed price is sent as the buyer last saw it, so the orders
 * service refuses it until the buyer takes the new one.
 */
export function sendableItems(items: readonly CartItem[], checks: ReadonlyMap<string, LineCheck>): CartItem[] {
  return items.filter((item) => {
    const state = checks.get(item.product_id)?.state;
    return state !== 'sold-out' && state !== 'next-harvest' && state !== 'gone';
  });
}

export interface RequestForm {
  fulfilment: Fulfilment;
  /** Only for delivery. */
  address: string;
  /** YYYY-MM-DD. */
  preferred_date: string;
  note: string;
  phone: string;
}

export type RequestFormField = 'address' | 'preferred_date' | 'note' | 'phone' | 'lines';
export type RequestFormErrors = Partial<Record<RequestFormField, string>>;

export const initialRequestForm = (phone: string, today: string): RequestForm => ({
  fulfilment: 'pickup',
  address: '',
  preferred_date: today,
  note: '',
  phone,
});

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isRealDay(day: string): boolean {
  if (!CALENDAR_DAY.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** What stops the form from being sent, per field, in words the buyer can act on. Empty when it can go. */
export function validateRequestForm(form: RequestForm, today: string, lineCount: number, t: T = tr): RequestFormErrors {
  const errors: RequestFormErrors = {};
  if (lineCount === 0) errors.lines = t('request.error.nothing');
  else if (lineCount > ORDER_LIMITS.maxLines)
    errors.lines = t('request.error.too-many', { max: ORDER_LIMITS.maxLines, extra: lineCount - ORDER_LIMITS.maxLines });
  if (form.fulfilment === 'delivery') {
    if (!form.address.trim()) errors.address = t('request.error.address');
    else if (form.address.trim().length > ORDER_LIMITS.addressMaxLength)
      errors.address = t('request.error.address-long', { max: ORDER_LIMITS.addressMaxLength });
  }
  if (!form.preferred_date) errors.preferred_date = t('request.error.date');
  else if (!isRealDay(form.preferred_date)) errors.preferred_date = t('request.error.date-format');
  else if (form.preferred_date < today) errors.preferred_date = t('request.error.date-past', { today: dayText(today) });
  if (form.note.trim().length > ORDER_LIMITS.noteMaxLength) errors.note = t('request.error.note-long', { max: ORDER_LIMITS.noteMaxLength });
  if (!form.phone.trim()) errors.phone = t('request.error.phone');
  else if (!nigerianE164(form.phone)) errors.phone = t('phone.invalid');
  return errors;
}

export const hasErrors = (errors: RequestFormErrors): boolean => Object.keys(errors).length > 0;

/** The body of POST /api/orders/requests for one farmer's lines (call after validateRequestForm found nothing). */
export function buildOrderRequest(farmerId: string, items: readonly CartItem[], form: RequestForm, requestId: string): NewOrderRequest {
  const address = form.address.trim();
  const note = form.note.trim();
  return {
    request_id: requestId,
    farmer_id: farmerId,
    lines: items.map((item) => ({ product_id: item.product_id, quantity: item.quantity, price: item.price, unit: item.unit })),
    fulfilment: form.fulfilment,
    ...(form.fulfilment === 'delivery' ? { address } : {}),
    preferred_date: form.preferred_date,
    ...(note ? { note } : {}),
    phone: nigerianE164(form.phone) ?? form.phone.trim(),
  };
}
