// What accepted requests hold back of each product's stock until the catalog has taken it off
// (ADR 0031). A request's take is applied once its "<request_id>:take" shows in the product's
// stock_ops (the catalog's latest 200) or was seen there once (stock_applied).
import { HOLDING_STATUSES } from './state-machine.js';
import type { OrderModels } from './models.js';
import type { ProductModel } from './products.js';

export async function heldQuantities(
  models: OrderModels,
  products: ProductModel,
  productIds: readonly string[],
): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  if (productIds.length === 0) return held;
  const [requests, copies] = await Promise.all([
    models.Request.find({ 'lines.product_id': { $in: productIds }, status: { $in: HOLDING_STATUSES } }, { request_id: 1, lines: 1 }).lean(),
    products.find({ product_id: { $in: productIds } }, { product_id: 1, stock_ops: 1 }).lean(),
  ]);
  if (requests.length === 0) return held;
  const ops = new Map(copies.map((p) => [p.product_id, new Set(p.stock_ops ?? [])]));
  const applied = new Set(
    (await models.AppliedStock.find({ request_id: { $in: requests.map((r) => r.request_id) } }, { _id: 1 }).lean<{ _id: string }[]>()).map(
      (a) => a._id,
    ),
  );
  for (const request of requests) {
    for (const line of request.lines) {
      if (!productIds.includes(line.product_id)) continue;
      const taken = ops.get(line.product_id)?.has(`${request.request_id}:take`) || applied.has(`${request.request_id}:${line.product_id}`);
      if (taken) continue;
      const quantity = line.accepted_quantity ?? line.quantity;
      held.set(line.product_id, Math.round(((held.get(line.product_id) ?? 0) + quantity) * 100) / 100);
    }
  }
  return held;
}
