// What accepted requests hold back of each product's stock until the catalog has taken it off
// (ADR 0031). A request's take is applied once its "<request_id>:take" shows in the product's
// stock_ops (the catalog's latest 200) or was seen there once (stock_applied).
//
// One consistent picture (issue 24): the product copy's quantity and its stock_ops change together
// (one ProductChanged, one write), so both are taken from ONE read of the copy, the same read the
// decision uses. The reads go requests → applied takes → copies: an applied take found was already
// in the copy's quantity before it was recorded, and a take applied after the copy was read still
// counts as held. Two reads of the copy with the consumer writing between them once let two accepts
// promise the same last unit.
//
// Every read is narrowed by an equality on a top-level field (farmer_id, _id, product_id): the part FerretDB
// hands to PostgreSQL. The product and status conditions alone, and `$in`, it checks document by document: the
// scan of every request in the database on each send and accept took 1 s at 1 600 requests (issue 24's
// 10 000 interleavings send 55 000). Every request holding a product is to that product's farmer (a send
// with another farmer's product is refused), so the farmer narrows the requests without changing them; the
// holding statuses are read one by one, so that only the farmer's held requests are decoded.
import { HOLDING_STATUSES } from './state-machine.js';
import type { OrderModels, RequestDoc } from './models.js';
import type { ProductModel } from './products.js';

/** The product copies as read once, and what holding requests still hold of each. */
export interface StockSnapshot<C> {
  copies: C[];
  held: Map<string, number>;
}

export async function stockSnapshot(
  models: OrderModels,
  products: ProductModel,
  productIds: readonly string[],
  farmerId: string,
): Promise<StockSnapshot<NonNullable<Awaited<ReturnType<typeof readCopy>>>>> {
  const held = new Map<string, number>();
  if (productIds.length === 0) return { copies: [], held };
  // One status at a time, in the machine's order (accepted, then fulfilled), never at once: a request
  // fulfilled between the two reads is then seen at least once (twice counts once). Read at once, an
  // accept and a fulfil in one burst let a request slip between the reads, and two buyers were promised
  // the last heap (the stock property, seed 791).
  const byId = new Map<string, Pick<RequestDoc, 'request_id' | 'lines'>>();
  for (const status of HOLDING_STATUSES) {
    const found = await models.Request.find(
      { farmer_id: farmerId, status, 'lines.product_id': { $in: productIds } },
      { request_id: 1, lines: 1 },
    ).lean<Pick<RequestDoc, 'request_id' | 'lines'>[]>();
    for (const request of found) if (!byId.has(request.request_id)) byId.set(request.request_id, request);
  }
  const requests = [...byId.values()];
  const takes = requests.flatMap((r) =>
    r.lines.filter((l) => productIds.includes(l.product_id)).map((l) => `${r.request_id}:${l.product_id}`),
  );
  const found = await Promise.all(takes.map((id) => models.AppliedStock.findOne({ _id: id }, { _id: 1 }).lean<{ _id: string }>()));
  const applied = new Set(found.flatMap((a) => (a ? [a._id] : [])));
  const copies = (await Promise.all(productIds.map((id) => readCopy(products, id)))).flatMap((copy) => (copy ? [copy] : []));
  const ops = new Map(copies.map((p) => [p.product_id, new Set(p.stock_ops ?? [])]));
  for (const request of requests) {
    for (const line of request.lines) {
      if (!productIds.includes(line.product_id)) continue;
      const taken = ops.get(line.product_id)?.has(`${request.request_id}:take`) || applied.has(`${request.request_id}:${line.product_id}`);
      if (taken) continue;
      const quantity = line.accepted_quantity ?? line.quantity;
      held.set(line.product_id, Math.round(((held.get(line.product_id) ?? 0) + quantity) * 100) / 100);
    }
  }
  return { copies, held };
}

const readCopy = (products: ProductModel, productId: string) => products.findOne({ product_id: productId }).lean();
