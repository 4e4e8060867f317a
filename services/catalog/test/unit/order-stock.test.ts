// The rule of stock changes from order requests (ADR 0033): takes and gives, applied once per key,
// never below 0, sold out at 0 and available again only when a take sold it out.
import { describe, expect, it } from 'vitest';
import { applyStockChange, linesByProduct, STOCK_OPS_KEPT, type StockState } from '../../src/domain/order-stock.js';

const product = (over: Partial<StockState> = {}): StockState => ({ unit: 'kg', quantity: 10, status: 'available', ...over });
const kg = (quantity: number) => [{ unit: 'kg', quantity }];

describe('a take (accepted request)', () => {
  it('takes the accepted quantity off the stock and records its key and what it took', () => {
    const outcome = applyStockChange(product(), 'r1', 'take', kg(3.5));
    expect(outcome).toEqual({
      kind: 'change',
      quantity: 6.5,
      status: 'available',
      sold_out_by_order: undefined,
      stock_ops: ['r1:take'],
      stock_taken: [{ request_id: 'r1', quantity: 3.5, unit: 'kg' }],
      changed: ['stock'],
      notes: [],
    });
  });

  it('is applied once: the same key again changes nothing', () => {
    expect(applyStockChange(product({ stock_ops: ['r1:take'] }), 'r1', 'take', kg(3))).toEqual({ kind: 'applied' });
  });

  it('adds the lines of one product together, with 2-decimal sums', () => {
    const outcome = applyStockChange(product({ quantity: 1 }), 'r1', 'take', [...kg(0.1), ...kg(0.2)]);
    expect(outcome).toMatchObject({ kind: 'change', quantity: 0.7 });
  });

  it('reaching 0 makes an available product sold out, marked as sold out by an order', () => {
    expect(applyStockChange(product({ quantity: 4 }), 'r1', 'take', kg(4))).toMatchObject({
      quantity: 0,
      status: 'sold_out',
      sold_out_by_order: true,
      changed: ['stock', 'status'],
    });
  });

  it('never goes below 0: takes what there is, records only that, and says so', () => {
    const outcome = applyStockChange(product({ quantity: 3 }), 'r1', 'take', kg(5));
    expect(outcome).toMatchObject({ quantity: 0, status: 'sold_out', stock_taken: [{ request_id: 'r1', quantity: 3, unit: 'kg' }] });
    expect(outcome.kind === 'change' && outcome.notes[0]).toMatch(/asked for 5 kg but only 3 were in stock/);
  });

  it('waits instead, while gives may still be on their way (waitOnShortfall), and takes in full when the stock covers it', () => {
    const short = applyStockChange(product({ quantity: 0, stock_ops: ['b:take'] }), 'a', 'take', kg(1), { waitOnShortfall: true });
    expect(short).toMatchObject({ kind: 'wait' });
    expect(short.kind === 'wait' && short.reason).toContain('asks for 1 kg and 0 are in stock');
    const covered = applyStockChange(product({ quantity: 2 }), 'a', 'take', kg(1), { waitOnShortfall: true });
    expect(covered).toMatchObject({ kind: 'change', quantity: 1, stock_taken: [{ request_id: 'a', quantity: 1, unit: 'kg' }] });
  });

  it('takes nothing for a line in another unit (the farmer changed the unit since), and says so', () => {
    const outcome = applyStockChange(product({ unit: 'heap' }), 'r1', 'take', kg(2));
    expect(outcome).toMatchObject({ quantity: 10, stock_taken: [{ request_id: 'r1', quantity: 0, unit: 'heap' }], stock_ops: ['r1:take'] });
    expect(outcome.kind === 'change' && outcome.notes[0]).toMatch(/now sold per heap/);
  });

  it('keeps a next-harvest product next harvest at 0 (its date still tells buyers when)', () => {
    expect(applyStockChange(product({ status: 'next_harvest', quantity: 2 }), 'r1', 'take', kg(2))).toMatchObject({
      quantity: 0,
      status: 'next_harvest',
      changed: ['stock'],
    });
  });

  it(`keeps the last ${STOCK_OPS_KEPT} keys`, () => {
    const ops = Array.from({ length: STOCK_OPS_KEPT }, (_, i) => `old${i}:take`);
    const outcome = applyStockChange(product({ stock_ops: ops }), 'r1', 'take', kg(1));
    expect(outcome.kind === 'change' && outcome.stock_ops).toEqual([...ops.slice(1), 'r1:take']);
  });
});

describe('a give (cancelled after it was accepted)', () => {
  const taken = (quantity: number, unit = 'kg') => ({ stock_ops: ['r1:take'], stock_taken: [{ request_id: 'r1', quantity, unit }] });

  it('gives back what the take took, and forgets the take', () => {
    expect(applyStockChange(product({ quantity: 7, ...taken(3) }), 'r1', 'give', kg(3))).toMatchObject({
      kind: 'change',
      quantity: 10,
      status: 'available',
      stock_ops: ['r1:take', 'r1:give'],
      stock_taken: [],
      changed: ['stock'],
    });
  });

  it('gives back only what a clamped take really took', () => {
    expect(
      applyStockChange(product({ quantity: 0, status: 'sold_out', sold_out_by_order: true, ...taken(3) }), 'r1', 'give', kg(5)),
    ).toMatchObject({ quantity: 3, status: 'available', sold_out_by_order: false, changed: ['stock', 'status'] });
  });

  it('makes a sold-out product available again only if a take sold it out', () => {
    expect(applyStockChange(product({ quantity: 0, status: 'sold_out', ...taken(2) }), 'r1', 'give', kg(2))).toMatchObject({
      quantity: 2,
      status: 'sold_out',
      sold_out_by_order: undefined,
      changed: ['stock'],
    });
  });

  it('is applied once', () => {
    expect(applyStockChange(product({ stock_ops: ['r1:take', 'r1:give'] }), 'r1', 'give', kg(2))).toEqual({ kind: 'applied' });
  });

  it('waits for its take when the take is not applied yet', () => {
    expect(applyStockChange(product(), 'r1', 'give', kg(2))).toMatchObject({ kind: 'wait' });
  });

  it('gives back nothing when the product is now sold in another unit, and says so', () => {
    const outcome = applyStockChange(product({ unit: 'heap', ...taken(3) }), 'r1', 'give', kg(3));
    expect(outcome).toMatchObject({ quantity: 10, stock_ops: ['r1:take', 'r1:give'] });
    expect(outcome.kind === 'change' && outcome.notes[0]).toMatch(/nothing given back/);
  });
});

describe('linesByProduct', () => {
  it('groups a request’s lines by product', () => {
    const lines = [
      { product_id: 'a', unit: 'kg', quantity: 1 },
      { product_id: 'b', unit: 'kg', quantity: 2 },
      { product_id: 'a', unit: 'kg', quantity: 3 },
    ];
    expect([...linesByProduct(lines)].map(([id, l]) => [id, l.length])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
