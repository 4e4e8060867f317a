import { describe, expect, it } from 'vitest';
import type { CartItem } from '../../src/cart/cart.js';
import { asOrderRefused, problemView, problemViews } from '../../src/orders/problems.js';

const item = (product_id: string, extra: Partial<CartItem> = {}): CartItem => ({
  product_id,
  product_name: product_id,
  images: [],
  price: 2000,
  unit: 'heap',
  farmer_id: 'f',
  quantity: 5,
  total: 10000,
  ...extra,
});

describe('a refused request, line by line', () => {
  it('price changed: says the new price with its unit and offers "Use new price"', () => {
    expect(problemView({ product_id: 'p', problem: 'price_changed', price: 2500, unit: 'heap' }, item('p'))).toEqual({
      problem: 'price_changed',
      text: 'Price changed to ₦2,500.00 per heap',
      fix: { kind: 'use-price', label: 'Use new price', price: 2500, unit: 'heap' },
    });
    // Without a unit in the answer, the line's own.
    expect(problemView({ product_id: 'p', problem: 'price_changed', price: 1234.5 }, item('p')).text).toBe(
      'Price changed to ₦1,234.50 per heap',
    );
  });

  it('unit changed: the new unit and price, taken with "Use new price"', () => {
    const view = problemView({ product_id: 'p', problem: 'unit_changed', price: 900, unit: 'kg' }, item('p'));
    expect(view.text).toBe('Now sold per kg: ₦900.00 per kg');
    expect(view.fix).toEqual({ kind: 'use-price', label: 'Use new price', price: 900, unit: 'kg' });
  });

  it('above stock: what is left, and a change to the whole units left', () => {
    expect(problemView({ product_id: 'p', problem: 'above_stock', available: 3, unit: 'heap' }, item('p'))).toEqual({
      problem: 'above_stock',
      text: 'Only 3 heaps left',
      fix: { kind: 'set-quantity', label: 'Change to 3', quantity: 3 },
    });
    expect(
      problemView({ product_id: 'p', problem: 'above_stock', available: 12.5, unit: 'kg' }, item('p', { unit: 'kg', quantity: 20 })).fix,
    ).toEqual({
      kind: 'set-quantity',
      label: 'Change to 12',
      quantity: 12,
    });
    expect(problemView({ product_id: 'p', problem: 'above_stock', available: 0.5, unit: 'kg' }, item('p', { unit: 'kg' }))).toMatchObject({
      text: 'Only 0.5 kg left',
      fix: { kind: 'remove' },
    });
    expect(problemView({ product_id: 'p', problem: 'above_stock', available: 0 }, item('p'))).toMatchObject({
      text: 'Sold out',
      fix: { kind: 'remove' },
    });
  });

  it('sold out and unavailable: said plainly, with Remove', () => {
    expect(problemView({ product_id: 'p', problem: 'sold_out' }, item('p'))).toEqual({
      problem: 'sold_out',
      text: 'Sold out',
      fix: { kind: 'remove', label: 'Remove' },
    });
    expect(problemView({ product_id: 'p', problem: 'unavailable' }, item('p'))).toEqual({
      problem: 'unavailable',
      text: 'No longer available',
      fix: { kind: 'remove', label: 'Remove' },
    });
  });

  it('maps every problem to its line and ignores products that are not in the request', () => {
    const views = problemViews(
      {
        problems: [
          { product_id: 'a', problem: 'sold_out' },
          { product_id: 'b', problem: 'price_changed', price: 2100 },
          { product_id: 'elsewhere', problem: 'unavailable' },
        ],
      },
      [item('a'), item('b'), item('c')],
    );
    expect([...views.keys()]).toEqual(['a', 'b']);
    expect(views.get('b')!.text).toBe('Price changed to ₦2,100.00 per heap');
  });

  it('reads a 409 OrderRefused body, and nothing else, as a refusal', () => {
    const body = {
      statusCode: 409,
      error: 'Conflict',
      message: 'Some lines cannot be sent as they are: Yam (price changed).',
      problems: [{ product_id: 'a', problem: 'price_changed', price: 2100, unit: 'heap' }, { nonsense: true }],
    };
    expect(asOrderRefused(409, body)).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: body.message,
      problems: [{ product_id: 'a', problem: 'price_changed', price: 2100, unit: 'heap' }],
    });
    expect(asOrderRefused(400, body)).toBeNull();
    expect(asOrderRefused(409, { statusCode: 409, error: 'Conflict', message: 'This request cannot be cancelled now' })).toBeNull();
    expect(asOrderRefused(409, 'text')).toBeNull();
  });
});
