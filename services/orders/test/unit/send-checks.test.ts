// The per-line checks when a buyer sends a request, and the sentence each refusal gives.
import { describe, expect, it } from 'vitest';
import type { OrderLineInput } from '@tuber/contracts';
import { availableQuantity, checkLines, refusalMessage, type ProductView } from '../../src/domain/send-checks.js';
import { checkNewRequestInput, buyerNameFromClaims } from '../../src/routes/requests.js';
import { notificationMail } from '../../src/mail/messages.js';
import { formatKobo, formatQuantity } from '../../src/domain/words.js';

const yam: ProductView = {
  product_id: 'yam',
  farmer_id: 'f1',
  product_name: 'Fresh yam',
  price_kobo: 250_000,
  unit: 'kg',
  quantity: 10,
  status: 'available',
};
const products = (...list: ProductView[]) => new Map(list.map((p) => [p.product_id, p]));
const line = (overrides: Partial<OrderLineInput> = {}): OrderLineInput => ({
  product_id: 'yam',
  quantity: 4,
  price: 2500,
  unit: 'kg',
  ...overrides,
});

describe('send checks', () => {
  it('passes a line that matches the product', () => {
    expect(checkLines([line()], products(yam), new Map())).toEqual([]);
    expect(checkLines([line({ quantity: 10 })], products(yam), new Map())).toEqual([]);
  });

  it('refuses an unknown or deleted product', () => {
    expect(checkLines([line()], products(), new Map())).toEqual([{ product_id: 'yam', problem: 'unavailable' }]);
    expect(checkLines([line()], products({ ...yam, deleted: true }), new Map())).toEqual([{ product_id: 'yam', problem: 'unavailable' }]);
  });

  it('refuses a sold-out product', () => {
    expect(checkLines([line()], products({ ...yam, status: 'sold_out' }), new Map())).toMatchObject([{ problem: 'sold_out' }]);
  });

  it('refuses more than is left, counting what accepted requests still hold', () => {
    expect(checkLines([line({ quantity: 11 })], products(yam), new Map())).toEqual([
      { product_id: 'yam', problem: 'above_stock', available: 10, unit: 'kg' },
    ]);
    expect(checkLines([line({ quantity: 5 })], products(yam), new Map([['yam', 6]]))).toEqual([
      { product_id: 'yam', problem: 'above_stock', available: 4, unit: 'kg' },
    ]);
    expect(checkLines([line({ quantity: 4 })], products(yam), new Map([['yam', 6]]))).toEqual([]);
    expect(availableQuantity({ quantity: 3 }, 5)).toBe(0);
  });

  it('lets a next-harvest product be asked for ahead of its stock', () => {
    expect(checkLines([line({ quantity: 50 })], products({ ...yam, status: 'next_harvest', quantity: 0 }), new Map())).toEqual([]);
  });

  it('refuses a changed price with the current one, to the kobo', () => {
    expect(checkLines([line({ price: 2400 })], products(yam), new Map())).toEqual([
      { product_id: 'yam', problem: 'price_changed', price: 2500, unit: 'kg' },
    ]);
    expect(checkLines([line({ price: 2500.01 })], products(yam), new Map())).toMatchObject([{ problem: 'price_changed' }]);
  });

  it('refuses a changed unit', () => {
    expect(checkLines([line({ unit: 'heap' })], products(yam), new Map())).toMatchObject([{ problem: 'unit_changed', unit: 'kg' }]);
  });

  it('gives one problem per line, every line checked', () => {
    const cassava = { ...yam, product_id: 'cassava', product_name: 'Cassava', status: 'sold_out' };
    const problems = checkLines(
      [line({ price: 2000 }), line({ product_id: 'cassava' }), line({ product_id: 'ginger' })],
      products(yam, cassava),
      new Map(),
    );
    expect(problems.map((p) => p.problem)).toEqual(['price_changed', 'sold_out', 'unavailable']);
  });

  it('says what to do, in words a person reads', () => {
    const map = products(yam);
    expect(refusalMessage([{ product_id: 'yam', problem: 'price_changed', price: 2500, unit: 'kg' }], map)).toBe(
      'The price of Fresh yam changed to ₦2,500.00 per kg; confirm the new price and send again.',
    );
    expect(refusalMessage([{ product_id: 'yam', problem: 'above_stock', available: 4, unit: 'kg' }], map)).toBe(
      'Only 4 kg of Fresh yam left; lower the quantity and send again.',
    );
    expect(refusalMessage([{ product_id: 'yam', problem: 'sold_out', unit: 'kg' }], map)).toBe(
      'Fresh yam is sold out; remove it from your cart and send again.',
    );
    expect(refusalMessage([{ product_id: 'gone', problem: 'unavailable' }], map)).toMatch(/no longer for sale; remove it from your cart/);
    expect(formatKobo(123_456_789)).toBe('₦1,234,567.89');
    expect(formatQuantity(2, 'heap')).toBe('2 heaps');
    expect(formatQuantity(1, 'bag_50kg')).toBe('1 50 kg bag');
  });
});

describe('request input', () => {
  const body = {
    request_id: '7c2f3a52-6a0b-4c44-9d8e-1f0a2b3c4d5e',
    farmer_id: 'f1',
    lines: [line()],
    fulfilment: 'pickup' as const,
    preferred_date: '2026-12-01',
    phone: '08031234567',
  };
  it('needs an address for delivery, a real date not in the past, each product once', () => {
    expect(checkNewRequestInput(body, '2026-11-25')).toBeUndefined();
    const check = (input: typeof body, today: string) => checkNewRequestInput(input, today);
    expect(check({ ...body, fulfilment: 'delivery' }, '2026-11-25')).toMatchObject({ code: 'DELIVERY_ADDRESS_MISSING', message: expect.stringMatching(/delivery address/) });
    expect(check({ ...body, fulfilment: 'delivery', address: '  ' }, '2026-11-25')).toMatchObject({ code: 'DELIVERY_ADDRESS_MISSING' });
    expect(check({ ...body, preferred_date: '2026-02-30' }, '2026-01-01')).toMatchObject({ code: 'PREFERRED_DATE_INVALID', message: expect.stringMatching(/not a date/) });
    expect(check({ ...body, preferred_date: '2026-11-24' }, '2026-11-25')).toMatchObject({ code: 'PREFERRED_DATE_PASSED', message: expect.stringMatching(/has passed/) });
    expect(check({ ...body, lines: [line(), line()] }, '2026-11-25')).toMatchObject({ code: 'PRODUCT_TWICE', message: expect.stringMatching(/twice/) });
    expect(check({ ...body, lines: [line({ quantity: 1.234 })] }, '2026-11-25')).toMatchObject({ code: 'QUANTITY_DECIMALS', message: expect.stringMatching(/2 decimals/) });
  });

  it('names the buyer from the token', () => {
    expect(buyerNameFromClaims({ given_name: 'Ada', family_name: 'Obi' })).toBe('Ada Obi');
    expect(buyerNameFromClaims({ firstname: 'Ada', lastname: 'Obi' })).toBe('Ada Obi');
    expect(buyerNameFromClaims({})).toBe('A buyer');
  });
});

describe('notification e-mails', () => {
  const facts = {
    number: 'TM-1042',
    buyerName: 'Ada Obi',
    businessName: 'Green Farms',
    lines: [{ name: 'Fresh yam', quantity: 4, unit: 'kg', price_kobo: 250_000 }],
    fulfilment: 'pickup',
    preferredDate: '2026-12-01',
    publicUrl: 'http://localhost:8080/',
  };
  it('tells the farmer of a new request, with lines, total and the inbox link', () => {
    const mail = notificationMail({ ...facts, kind: 'sent', to: 'farmer' });
    expect(mail.subject).toBe('New order request TM-1042 from Ada Obi');
    expect(mail.text).toContain('Fresh yam: 4 kg at ₦2,500.00 per kg = ₦10,000.00');
    expect(mail.text).toContain('Total: ₦10,000.00');
    expect(mail.link).toBe('http://localhost:8080/dashboard/inbox');
  });
  it('tells the buyer of a decline with the reason and the requests link', () => {
    const mail = notificationMail({ ...facts, kind: 'declined', to: 'buyer', reason: 'No yam <left>' });
    expect(mail.subject).toBe('Your order request TM-1042 was declined');
    expect(mail.text).toContain('Reason: "No yam <left>"');
    expect(mail.html).toContain('No yam &#60;left&#62;');
    expect(mail.link).toBe('http://localhost:8080/dashboard/requests');
  });
});
