import { describe, expect, it } from 'vitest';
import type { CartItem } from '../../src/cart/cart.js';
import type { LineCheck } from '../../src/cart/cartCheck.js';
import {
  buildOrderRequest,
  groupByFarmer,
  groupTitle,
  hasErrors,
  initialRequestForm,
  sendableItems,
  validateRequestForm,
  type RequestForm,
} from '../../src/orders/requestForm.js';

const line = (product_id: string, farmer_id: string, extra: Partial<CartItem> = {}): CartItem => ({
  product_id,
  product_name: `Product ${product_id}`,
  images: [],
  price: 1000,
  unit: 'kg',
  farmer_id,
  quantity: 1,
  total: 1000,
  ...extra,
});

const TODAY = '2026-11-25';
const form = (change: Partial<RequestForm> = {}): RequestForm => ({ ...initialRequestForm('0803 123 4567', TODAY), ...change });

describe('grouping the cart by farmer', () => {
  it('makes one group per farmer, farmers in the order their first line was added, lines in cart order', () => {
    const cart = [line('a1', 'ada'), line('b1', 'bola'), line('a2', 'ada'), line('c1', 'chidi'), line('b2', 'bola')];
    const groups = groupByFarmer(cart, new Map([['bola', 'Bola Farms']]));
    expect(groups.map((group) => group.farmer_id)).toEqual(['ada', 'bola', 'chidi']);
    expect(groups.map((group) => group.items.map((item) => item.product_id))).toEqual([['a1', 'a2'], ['b1', 'b2'], ['c1']]);
    expect(groups.map(groupTitle)).toEqual(['Farmer', 'Bola Farms', 'Farmer']);
  });

  it('gives no group for an empty cart', () => {
    expect(groupByFarmer([])).toEqual([]);
  });

  it('leaves out of the request the lines the cart knows cannot be had, and keeps a changed price to be confirmed', () => {
    const items = [line('ok', 'f'), line('sold', 'f'), line('later', 'f'), line('gone', 'f'), line('price', 'f'), line('unchecked', 'f')];
    const checks = new Map<string, LineCheck>([
      ['ok', { state: 'ok' }],
      ['sold', { state: 'sold-out' }],
      ['later', { state: 'next-harvest', text: 'Next harvest from 1 Dec 2026' }],
      ['gone', { state: 'gone' }],
      ['price', { state: 'price-changed', was: { price: 1000, unit: 'kg' }, now: { price: 1200, unit: 'kg' } }],
      ['unchecked', { state: 'unchecked', message: 'offline' }],
    ]);
    expect(sendableItems(items, checks).map((item) => item.product_id)).toEqual(['ok', 'price', 'unchecked']);
  });
});

describe('the request form', () => {
  it('starts with pickup, today and the session phone', () => {
    expect(initialRequestForm('+234 803 123 4567', TODAY)).toEqual({
      fulfilment: 'pickup',
      address: '',
      preferred_date: TODAY,
      note: '',
      phone: '+234 803 123 4567',
    });
  });

  it('accepts pickup today with a Nigerian phone number in any usual form', () => {
    for (const phone of ['0803 123 4567', '+234 803 123 4567', '2348031234567', '(0803) 123-4567']) {
      expect(validateRequestForm(form({ phone }), TODAY, 2)).toEqual({});
    }
  });

  it('asks for an address for delivery, and not for pickup', () => {
    expect(validateRequestForm(form({ fulfilment: 'delivery', address: '   ' }), TODAY, 1)).toEqual({
      address: 'Enter the delivery address.',
    });
    expect(validateRequestForm(form({ fulfilment: 'delivery', address: 'a'.repeat(301) }), TODAY, 1).address).toBe(
      'The address can be at most 300 characters.',
    );
    expect(validateRequestForm(form({ fulfilment: 'pickup', address: '' }), TODAY, 1)).toEqual({});
  });

  it('refuses a preferred date before today, a missing one and one that is not a calendar day', () => {
    expect(validateRequestForm(form({ preferred_date: '2026-11-24' }), TODAY, 1).preferred_date).toBe(
      'Choose today (25 Nov 2026) or a later day.',
    );
    expect(validateRequestForm(form({ preferred_date: '' }), TODAY, 1).preferred_date).toBe('Choose a preferred date.');
    expect(validateRequestForm(form({ preferred_date: '2026-02-30' }), TODAY, 1).preferred_date).toBe('Enter the date as a calendar day.');
    expect(validateRequestForm(form({ preferred_date: '2027-01-12' }), TODAY, 1)).toEqual({});
  });

  it('refuses a phone that is not Nigerian with the contract’s message, and an empty one', () => {
    expect(validateRequestForm(form({ phone: '+44 20 7946 0958' }), TODAY, 1).phone).toMatch(
      /^Enter a Nigerian phone number, like 0803 123 4567/,
    );
    expect(validateRequestForm(form({ phone: '12345' }), TODAY, 1).phone).toMatch(/^Enter a Nigerian phone number/);
    expect(validateRequestForm(form({ phone: ' ' }), TODAY, 1).phone).toBe('Enter a phone number the farmer can reach you on.');
  });

  it('limits the note to 500 characters and a request to 20 lines, and needs one line', () => {
    expect(validateRequestForm(form({ note: 'n'.repeat(501) }), TODAY, 1).note).toBe('The note can be at most 500 characters.');
    expect(validateRequestForm(form(), TODAY, 21).lines).toBe('A request can hold at most 20 products; remove 1.');
    expect(validateRequestForm(form(), TODAY, 0).lines).toMatch(/^Nothing to send/);
    expect(hasErrors(validateRequestForm(form(), TODAY, 20))).toBe(false);
  });
});

describe('building the request', () => {
  const items = [
    line('yam', 'ada', { price: 2000, unit: 'heap', quantity: 3, total: 6000 }),
    line('ginger', 'ada', { price: 1500.5, quantity: 2 }),
  ];

  it('sends each line with the quantity, unit and the price the buyer saw, the phone in E.164, and the client’s request id', () => {
    expect(buildOrderRequest('ada', items, form({ note: '  Please call first  ' }), 'f3b0c1de-3c4d-4a5b-8c6d-7e8f9a0b1c2d')).toEqual({
      request_id: 'f3b0c1de-3c4d-4a5b-8c6d-7e8f9a0b1c2d',
      farmer_id: 'ada',
      lines: [
        { product_id: 'yam', quantity: 3, price: 2000, unit: 'heap' },
        { product_id: 'ginger', quantity: 2, price: 1500.5, unit: 'kg' },
      ],
      fulfilment: 'pickup',
      preferred_date: TODAY,
      note: 'Please call first',
      phone: '2348031234567',
    });
  });

  it('carries the address only for delivery, and no empty note', () => {
    const pickup = buildOrderRequest('ada', items, form({ address: 'left over from delivery' }), 'id');
    expect(pickup).not.toHaveProperty('address');
    expect(pickup).not.toHaveProperty('note');
    const delivery = buildOrderRequest('ada', items, form({ fulfilment: 'delivery', address: ' 12 Oba Road, Osogbo ' }), 'id');
    expect(delivery.fulfilment).toBe('delivery');
    expect(delivery.address).toBe('12 Oba Road, Osogbo');
  });
});
