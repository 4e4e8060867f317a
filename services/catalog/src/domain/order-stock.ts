// Stock changes from order requests (issue 12, ADR 0033), as a pure rule: given a product as stored
// and one request's lines for it, what the product becomes. The consumer (events/order-stock.ts)
// applies the result as one document update guarded on the change's key.
import { round2 } from './product.js';

/** How many stock-change keys (and takes) a product keeps: enough to recognise any redelivery. */
export const STOCK_OPS_KEPT = 200;

export type StockOpKind = 'take' | 'give';

/** The key of one request's stock change on a product, as kept in `stock_ops` and sent in ProductChanged. */
export const stockOpKey = (requestId: string, kind: StockOpKind) => `${requestId}:${kind}`;

export interface StockLine {
  unit: string;
  quantity: number;
}

export interface Taken {
  request_id: string;
  quantity: number;
  unit: string;
}

/** The part of a product document the rule reads. */
export interface StockState {
  unit: string;
  quantity: number;
  status: string;
  stock_ops?: string[] | null;
  stock_taken?: Taken[] | null;
  sold_out_by_order?: boolean | null;
}

export type StockOutcome =
  /** The change is already in the stock (a redelivery): nothing to write. */
  | { kind: 'applied' }
  /** A give whose take has not been applied yet (the two events travel on different consumers): try later. */
  | { kind: 'wait'; reason: string }
  | {
      kind: 'change';
      quantity: number;
      status: string;
      /** Set to true or false; undefined leaves it. */
      sold_out_by_order: boolean | undefined;
      stock_ops: string[];
      stock_taken: Taken[];
      /** For ProductChanged: 'stock', and 'status' when it changed. */
      changed: string[];
      /** What happened that a person reading the log should know (a clamp, a line in another unit). */
      notes: string[];
    };

const keep = <T>(items: T[]) => items.slice(-STOCK_OPS_KEPT);

/**
 * Takes a request's accepted quantities off the stock, or gives back what its take took.
 * - take: the lines in the product's unit are taken; never below 0 (the shortfall is noted); a
 *   line in another unit (the farmer changed the unit since) takes nothing and is noted. Reaching
 *   0 makes an available product sold out, marked as sold out by an order.
 * - give: returns what the take recorded it took (nothing if the unit changed since); a product a
 *   take sold out becomes available again. Waits while the take is not applied.
 * With `waitOnShortfall`, a take the stock cannot cover waits instead (the event is redelivered):
 * the missing stock may be a cancelled request's give still on its way. Events of different
 * requests arrive in any order: the orders service accepted A once B's cancellation freed B's
 * units, but here B's take came first, A's take found 0 and stopped there, and B's give then put
 * B's units back; the stock showed units A already held, and the orders service could promise them
 * again (seen in the stock property's logs, issue 24). Only after the waits does a take stop at 0
 * (a farmer lowered the stock below what was accepted).
 */
export function applyStockChange(
  product: StockState,
  requestId: string,
  kind: StockOpKind,
  lines: StockLine[],
  options: { waitOnShortfall?: boolean } = {},
): StockOutcome {
  const ops = product.stock_ops ?? [];
  const takes = product.stock_taken ?? [];
  const key = stockOpKey(requestId, kind);
  if (ops.includes(key)) return { kind: 'applied' };
  const notes: string[] = [];
  const before = round2(product.quantity);
  let quantity: number;
  let status = product.status;
  let soldOutByOrder: boolean | undefined;
  let stockTaken = takes;

  if (kind === 'take') {
    let asked = 0;
    for (const line of lines) {
      if (line.unit === product.unit) asked += line.quantity;
      else notes.push(`a line of ${line.quantity} ${line.unit} was not taken: the product is now sold per ${product.unit}`);
    }
    asked = round2(asked);
    const took = Math.min(asked, Math.max(0, before));
    if (took < asked && options.waitOnShortfall) {
      return {
        kind: 'wait',
        reason: `the take of request ${requestId} asks for ${asked} ${product.unit} and ${before} are in stock; it waits for gives on their way`,
      };
    }
    if (took < asked) notes.push(`asked for ${asked} ${product.unit} but only ${before} were in stock: the stock stops at 0`);
    quantity = round2(before - took);
    if (quantity === 0 && status === 'available') {
      status = 'sold_out';
      soldOutByOrder = true;
    }
    stockTaken = keep([
      ...takes.filter((t) => t.request_id !== requestId),
      { request_id: requestId, quantity: round2(took), unit: product.unit },
    ]);
  } else {
    const take = takes.find((t) => t.request_id === requestId);
    if (!take) {
      if (!ops.includes(stockOpKey(requestId, 'take'))) {
        return { kind: 'wait', reason: `the take of request ${requestId} is not applied yet; its give waits for it` };
      }
      // Taken before takes were recorded one by one: give back the lines in the product's unit.
      notes.push('no record of what the take took: the lines are given back');
    }
    let back = 0;
    if (take) {
      if (take.unit === product.unit) back = take.quantity;
      else notes.push(`${take.quantity} ${take.unit} were taken but the product is now sold per ${product.unit}: nothing given back`);
    } else {
      back = round2(lines.filter((line) => line.unit === product.unit).reduce((sum, line) => sum + line.quantity, 0));
    }
    quantity = round2(before + back);
    if (status === 'sold_out' && product.sold_out_by_order && quantity > 0) {
      status = 'available';
      soldOutByOrder = false;
    }
    stockTaken = takes.filter((t) => t.request_id !== requestId);
  }

  return {
    kind: 'change',
    quantity,
    status,
    sold_out_by_order: soldOutByOrder,
    stock_ops: keep([...ops, key]),
    stock_taken: stockTaken,
    changed: status === product.status ? ['stock'] : ['stock', 'status'],
    notes,
  };
}

/** One request's lines grouped by product, in the order they first appear. */
export function linesByProduct<L extends StockLine & { product_id: string }>(lines: L[]): Map<string, L[]> {
  const byProduct = new Map<string, L[]>();
  for (const line of lines) byProduct.set(line.product_id, [...(byProduct.get(line.product_id) ?? []), line]);
  return byProduct;
}
