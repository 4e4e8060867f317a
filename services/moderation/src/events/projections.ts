// What reports can name, copied from the other services' events (durable consumers, idempotent): products with
// their farmer and name, farms' names, and order requests' parties. A report of something not (yet) copied is
// refused with 404, as is one the reporter has no part in (a request).
import { AccountDeleted, FarmerProfileChanged, OrderSent, ProductChanged, ProductCreated, ProductDeleted } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import type { ModerationModels } from '../domain/models.js';

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/** Sets `fields` on the copy `_id` unless it holds `revision` or a newer one; creates it when missing. */
async function forward(model: import('mongoose').Model<any>, id: string, revision: number, fields: Record<string, unknown>) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const updated = await model.updateOne({ _id: id, revision: { $lt: revision } }, { $set: { ...fields, revision } });
    if (updated.matchedCount > 0 || (await model.exists({ _id: id }))) return;
    try {
      await model.create({ _id: id, ...fields, revision });
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

export async function followTargets(bus: EventBus, models: ModerationModels): Promise<void> {
  const { ProductCopy, FarmCopy, RequestCopy } = models;
  await bus.consume(ProductCreated, { durable: 'moderation-products-created' }, async (event) => {
    await forward(ProductCopy, event.product_id, event.revision ?? 1, { farmer_id: event.farmer_id, name: event.product_name ?? '' });
  });
  await bus.consume(ProductChanged, { durable: 'moderation-products-changed' }, async (event) => {
    const fields: Record<string, unknown> = { farmer_id: event.farmer_id };
    if (event.product_name !== undefined) fields.name = event.product_name;
    await forward(ProductCopy, event.product_id, event.revision, fields);
  });
  await bus.consume(ProductDeleted, { durable: 'moderation-products-deleted' }, async (event) => {
    // Final: kept (the reports and the audit log still name it), marked deleted, beyond any revision.
    await ProductCopy.updateOne(
      { _id: event.product_id },
      { $set: { farmer_id: event.farmer_id, deleted: true, revision: Number.MAX_SAFE_INTEGER } },
      { upsert: true },
    );
  });
  await bus.consume(FarmerProfileChanged, { durable: 'moderation-farmers' }, async (event) => {
    await forward(FarmCopy, event.farmer_id, event.revision, { business_name: event.business_name });
  });
  await bus.consume(OrderSent, { durable: 'moderation-requests' }, async (event) => {
    try {
      await RequestCopy.create({ _id: event.request_id, number: event.number, buyer_id: event.buyer_id, farmer_id: event.farmer_id, at: new Date(event.at) });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // delivered again
    }
  });
  await bus.consume(AccountDeleted, { durable: 'moderation-account-deleted' }, async (event) => {
    // Reports about a deleted account have nothing left to act on: closed, and said so in the target's history.
    await models.Report.updateMany(
      { state: 'open', target_kind: 'farmer', target_id: event.user_id },
      { $set: { state: 'closed', closed_at: new Date(event.deleted_at), closed_by: 'account-deleted' } },
    );
  });
}
