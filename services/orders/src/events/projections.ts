// The orders service's copies of other services' data, kept from their events (durable consumers,
// idempotent: a product copy moves only forward by revision; contacts only to a newer address).
import {
  AccountDeleted,
  AccountEmailChanged,
  FarmerProfileChanged,
  FarmerSmsAlertsChanged,
  ProductChanged,
  ProductCreated,
  ProductDeleted,
  ProfileCreated,
  localeOf,
} from '@tuber/contracts';
import { findByValues, withLocks, type EventBus, type RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { contactLockKey } from '../domain/locks.js';
import type { OrderModels } from '../domain/models.js';
import type { ProductModel } from '../domain/products.js';

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/**
 * Writes `fields` to the product's copy unless it already reflects `revision` or a later one.
 * A copy that does not exist yet is created; two first writes racing meet the unique index and the
 * loser tries again as an update.
 */
async function applyProduct(products: ProductModel, productId: string, revision: number, fields: Record<string, unknown>): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const updated = await products.updateOne(
      { product_id: productId, revision: { $lt: revision } },
      { $set: { ...fields, revision, updated_at: new Date() } },
    );
    if (updated.matchedCount > 0) return;
    if (await products.exists({ product_id: productId })) return; // already this revision or newer
    try {
      await products.create({ product_id: productId, ...fields, revision, updated_at: new Date() });
      return;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

export async function followProducts(bus: EventBus, products: ProductModel, models: OrderModels, log: FastifyBaseLogger): Promise<void> {
  await bus.consume(ProductCreated, { durable: 'orders-product-created' }, async (event) => {
    const fields: Record<string, unknown> = { farmer_id: event.farmer_id };
    if (event.product_name !== undefined) fields.product_name = event.product_name;
    if (event.price_kobo !== undefined) fields.price_kobo = event.price_kobo;
    if (event.unit !== undefined) fields.unit = event.unit;
    if (event.quantity !== undefined) fields.quantity = event.quantity;
    if (event.status !== undefined) fields.status = event.status;
    // Created without a revision (before issue 12): revision 1, so any change supersedes it.
    await applyProduct(products, event.product_id, event.revision ?? 1, fields);
  });

  await bus.consume(ProductChanged, { durable: 'orders-product-changed' }, async (event) => {
    const fields: Record<string, unknown> = {
      farmer_id: event.farmer_id,
      price_kobo: event.price_kobo,
      unit: event.unit,
      quantity: event.quantity,
      status: event.status,
    };
    if (event.product_name !== undefined) fields.product_name = event.product_name;
    if (event.stock_ops !== undefined) fields.stock_ops = event.stock_ops;
    await applyProduct(products, event.product_id, event.revision, fields);
    // Remember each take the catalog applied, beyond the 200 stock_ops keeps (idempotent by _id).
    const takes = (event.stock_ops ?? []).filter((op) => op.endsWith(':take')).map((op) => op.slice(0, -':take'.length));
    if (takes.length) {
      const known = new Set(
        (
          await findByValues<{ _id: string }>(
            models.AppliedStock,
            '_id',
            takes.map((id) => `${id}:${event.product_id}`),
            {},
            { _id: 1 },
          )
        ).map((a) => a._id),
      );
      for (const requestId of takes) {
        const id = `${requestId}:${event.product_id}`;
        if (known.has(id)) continue;
        await models.AppliedStock.create({ _id: id, request_id: requestId, product_id: event.product_id, at: new Date() }).catch(
          (err: unknown) => {
            if (!isDuplicateKey(err)) throw err;
          },
        );
      }
    }
  });

  await bus.consume(ProductDeleted, { durable: 'orders-product-deleted' }, async (event) => {
    // A deletion is final: it wins over any revision, and a later-arriving create or change finds a
    // copy with a revision no event can beat.
    await products.updateOne(
      { product_id: event.product_id },
      { $set: { farmer_id: event.farmer_id, deleted: true, revision: Number.MAX_SAFE_INTEGER, updated_at: new Date() } },
      { upsert: true },
    );
    log.debug({ productId: event.product_id }, 'product deleted: no longer requestable');
  });
}

/** Sets a user's language unless a newer one (or this one) is stored; a first write that races another meets the unique _id. */
async function applyLocale(models: OrderModels, userId: string, locale: string, at: Date): Promise<void> {
  const { AccountLocale } = models;
  const updated = await AccountLocale.updateOne({ _id: userId, at: { $lt: at } }, { $set: { locale, at } });
  if (updated.matchedCount > 0 || (await AccountLocale.exists({ _id: userId }))) return;
  try {
    await AccountLocale.create({ _id: userId, locale, at });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await AccountLocale.updateOne({ _id: userId, at: { $lt: at } }, { $set: { locale, at } });
  }
}

export async function followContacts(bus: EventBus, models: OrderModels, redis: RedisClient): Promise<void> {
  const { Contact } = models;
  // One writer of a contact at a time (ADR 0035): FerretDB 1.x applies an update as a read of the whole
  // document and a write of it back, so ProfileCreated's address and FarmerProfileChanged's name, handled
  // at the same moment by their two consumers, could leave the farmer without a name (seen in CI: the
  // farmer's name missing from the e-mails). Busy: the event comes back.
  const upsert = (userId: string, update: Record<string, unknown>, filter: Record<string, unknown> = {}) =>
    withLocks(
      redis,
      [contactLockKey(userId)],
      async () => {
        try {
          await Contact.updateOne({ user_id: userId, ...filter }, update, { upsert: true });
        } catch (err) {
          // The filter missed an existing contact (what it holds is newer): nothing to do.
          if (!isDuplicateKey(err)) throw err;
        }
      },
      { busy: () => new Error(`the contact ${userId} is being written; the event will come back`) },
    );

  await bus.consume(ProfileCreated, { durable: 'orders-profile-created' }, async (event) => {
    const at = new Date(event.created_at);
    await upsert(event.user_id, { $set: { user_type: event.user_type } });
    // The address only if none newer is known (an e-mail change may have arrived first).
    await upsert(
      event.user_id,
      { $set: { email: event.email.toLowerCase(), email_at: at } },
      { $or: [{ email_at: { $exists: false } }, { email_at: null }, { email_at: { $lt: at } }], deleted: { $ne: true } },
    );
  });

  await bus.consume(AccountEmailChanged, { durable: 'orders-account-email' }, async (event) => {
    const at = new Date(event.changed_at);
    // The account's language (issue 13), verified address or not: only forward in time, idempotent.
    const locale = localeOf(event.locale);
    if (locale) await applyLocale(models, event.user_id, locale, at);
    if (!event.email_verified) return;
    await upsert(
      event.user_id,
      { $set: { email: event.email.toLowerCase(), email_at: at } },
      { $or: [{ email_at: { $exists: false } }, { email_at: null }, { email_at: { $lt: at } }], deleted: { $ne: true } },
    );
  });

  await bus.consume(FarmerProfileChanged, { durable: 'orders-farmer-changed' }, async (event) => {
    await upsert(
      event.farmer_id,
      { $set: { business_name: event.business_name, business_revision: event.revision, user_type: 'farmer' } },
      { business_revision: { $lt: event.revision } },
    );
  });

  // Where a farmer's new-request SMS alerts go (issue 26): only forward by revision.
  await bus.consume(FarmerSmsAlertsChanged, { durable: 'orders-farmer-alerts' }, async (event) => {
    await upsert(
      event.farmer_id,
      { $set: { sms_to: event.sms_to, sms_revision: event.revision, user_type: 'farmer' } },
      { $or: [{ sms_revision: { $exists: false } }, { sms_revision: null }, { sms_revision: { $lt: event.revision } }] },
    );
  });

  await bus.consume(AccountDeleted, { durable: 'orders-account-deleted' }, async (event) => {
    await upsert(event.user_id, { $set: { deleted: true }, $unset: { email: '', sms_to: '' } });
  });
}
