// The orders service's documents (database `orders`). A request is one document: its status,
// history, what each party last saw and the events of its transitions (outbox) change together.
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { OutboxField, unavailable } from '@tuber/kit';
import { ORDER_STATUSES } from '@tuber/contracts';
import type { RedisClient } from '@tuber/kit';
import { requestLockKey, withLocks } from './locks.js';

const LineSchema = new Schema(
  {
    product_id: { type: String, required: true },
    product_name: { type: String, required: true },
    unit: { type: String, required: true },
    quantity: { type: Number, required: true },
    accepted_quantity: { type: Number },
    /** Price of one unit when the request was sent, kobo. */
    price_kobo: { type: Number, required: true },
  },
  { _id: false },
);

const HistorySchema = new Schema(
  {
    status: { type: String, enum: ORDER_STATUSES, required: true },
    at: { type: Date, required: true },
    by: { type: String, enum: ['buyer', 'farmer'], required: true },
    reason: { type: String },
  },
  { _id: false },
);

export const RequestSchema = new Schema(
  {
    request_id: { type: String, required: true },
    number: { type: String, required: true },
    buyer_id: { type: String, required: true },
    buyer_name: { type: String, required: true },
    buyer_phone: { type: String, required: true },
    farmer_id: { type: String, required: true },
    /** The farmer's phone (E.164 digits) from their token when they accepted: the buyer's mail gives it (issue 25). */
    farmer_phone: { type: String },
    business_name: { type: String, default: '' },
    lines: { type: [LineSchema], required: true },
    fulfilment: { type: String, enum: ['pickup', 'delivery'], required: true },
    address: { type: String },
    preferred_date: { type: String, required: true },
    note: { type: String },
    /** The buyer's language when sending (the token's locale claim, issue 13): their mails' language until a newer one is known. */
    buyer_locale: { type: String },
    status: { type: String, enum: ORDER_STATUSES, required: true },
    history: { type: [HistorySchema], default: [] },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    /** 1 when sent, +1 per transition; every transition is conditional on the one it read. */
    revision: { type: Number, required: true },
    /** Who made the latest change (sending is the buyer's). */
    last_change_by: { type: String, enum: ['buyer', 'farmer'], required: true },
    /** The revision each party last saw (POST …/read); below `revision` with the other's change = unread. */
    seen_buyer: { type: Number, default: 0 },
    seen_farmer: { type: Number, default: 0 },
    /** Kept with every write so the unread count is a plain indexed count. */
    unread_buyer: { type: Boolean, default: false },
    unread_farmer: { type: Boolean, default: false },
    outbox: OutboxField,
  },
  { collection: 'requests', versionKey: false },
);
RequestSchema.index({ request_id: 1 }, { unique: true });
RequestSchema.index({ buyer_id: 1, created_at: -1 });
RequestSchema.index({ farmer_id: 1, created_at: -1 });
RequestSchema.index({ 'lines.product_id': 1, status: 1 });

export type RequestDoc = InferSchemaType<typeof RequestSchema>;

/** The people requests name: e-mail addresses for notifications and farmers' business names. */
export const ContactSchema = new Schema(
  {
    user_id: { type: String, required: true },
    user_type: { type: String },
    email: { type: String },
    /** When the account's address was set (ProfileCreated's created_at, AccountEmailChanged's changed_at). */
    email_at: { type: Date },
    business_name: { type: String },
    business_revision: { type: Number, default: 0 },
    deleted: { type: Boolean, default: false },
    /** A farmer's verified number for new-request SMS alerts, while they have them on (FarmerSmsAlertsChanged, issue 26). */
    sms_to: { type: String, default: null },
    sms_revision: { type: Number },
  },
  { collection: 'contacts', versionKey: false },
);
ContactSchema.index({ user_id: 1 }, { unique: true });
export type ContactDoc = InferSchemaType<typeof ContactSchema>;

/** One notification e-mail: `<request_id>:<revision>:<recipient>`, claimed before sending, marked after. */
export const MailSchema = new Schema(
  {
    _id: { type: String, required: true },
    state: { type: String, enum: ['sending', 'sent'], required: true },
    claimed_at: { type: Date, required: true },
    sent_at: { type: Date },
    to: { type: String },
    subject: { type: String },
    /** A digest's requests (`digest:…` records only): the ones its mail named, marked mailed once it is sent. */
    request_ids: { type: [String], default: undefined },
  },
  { collection: 'mails', versionKey: false },
);
export type MailDoc = InferSchemaType<typeof MailSchema>;

/** Counters ($inc on one document): the request numbers people read out. */
export const CounterSchema = new Schema(
  { _id: { type: String, required: true }, seq: { type: Number, default: 0 } },
  { collection: 'counters', versionKey: false },
);

/** A stock take the catalog applied ("<request_id>:<product_id>"), seen in a ProductChanged's stock_ops (which keeps only the latest 200). */
export const AppliedStockSchema = new Schema(
  { _id: { type: String, required: true }, request_id: String, product_id: String, at: Date },
  { collection: 'stock_applied', versionKey: false },
);

/**
 * An account's language (issue 13, docs/adr/0044): `_id` is the user id; written only by the
 * AccountEmailChanged consumer, forward in `at` (Keycloak's time of the change). Its own collection, so no
 * other writer of the contacts shares its documents.
 */
export const AccountLocaleSchema = new Schema(
  { _id: { type: String, required: true }, locale: { type: String, required: true }, at: { type: Date, required: true } },
  { collection: 'account_locales', versionKey: false },
);
export type AccountLocaleDoc = InferSchemaType<typeof AccountLocaleSchema>;

/**
 * A new request held for the farmer's digest (issue 24, docs/adr/0060): over the window's bound of
 * single mails, it waits here (inserted once, `_id` the request id) until `due_at`, the end of its
 * window, when whichever replica holds the digest lease mails the farmer's waiting ones together.
 */
export const DigestEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    number: { type: String, required: true },
    buyer_name: { type: String, required: true },
    product_names: { type: [String], default: [] },
    received_at: { type: Date, required: true },
    due_at: { type: Date, required: true },
    /** Set once a digest naming it is sent. */
    mailed_at: { type: Date },
    /**
     * True while it waits for its digest, unset when mailed: the sweep finds the waiting ones by this
     * equality, which FerretDB reads by index (docs/adr/0063), instead of `mailed_at` missing, which it
     * checks document by document across every entry ever held. Entries held by a release before this
     * field have neither; the sweep looks for those by `mailed_at` every few minutes.
     */
    waiting: { type: Boolean },
  },
  { collection: 'mail_digest_entries', versionKey: false },
);
DigestEntrySchema.index({ mailed_at: 1, due_at: 1 });
DigestEntrySchema.index({ waiting: 1, due_at: 1 });
// A farmer's digest reads and marks that farmer's entries.
DigestEntrySchema.index({ farmer_id: 1, due_at: 1 });
export type DigestEntryDoc = InferSchemaType<typeof DigestEntrySchema>;

/**
 * A buyer a farmer blocked (issue 24): `_id` `<farmer_id>:<buyer_id>`, so a block is one insert and an
 * unblock one delete; the send route refuses that buyer's new requests to that farmer.
 */
export const BlockedBuyerSchema = new Schema(
  {
    _id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    buyer_id: { type: String, required: true },
    buyer_name: { type: String, required: true },
    blocked_at: { type: Date, required: true },
  },
  { collection: 'blocked_buyers', versionKey: false },
);
BlockedBuyerSchema.index({ farmer_id: 1, blocked_at: -1 });
export type BlockedBuyerDoc = InferSchemaType<typeof BlockedBuyerSchema>;
export const blockId = (farmerId: string, buyerId: string) => `${farmerId}:${buyerId}`;

export function orderModels(connection: Connection) {
  return {
    Request: connection.model('Request', RequestSchema) as Model<RequestDoc>,
    Contact: connection.model('Contact', ContactSchema) as Model<ContactDoc>,
    Mail: connection.model('Mail', MailSchema) as Model<MailDoc>,
    Counter: connection.model('Counter', CounterSchema),
    AppliedStock: connection.model('AppliedStock', AppliedStockSchema),
    AccountLocale: connection.model('AccountLocale', AccountLocaleSchema) as Model<AccountLocaleDoc>,
    DigestEntry: connection.model('DigestEntry', DigestEntrySchema) as Model<DigestEntryDoc>,
    BlockedBuyer: connection.model('BlockedBuyer', BlockedBuyerSchema) as Model<BlockedBuyerDoc>,
  };
}
export type OrderModels = ReturnType<typeof orderModels>;

/** Request numbers a replica takes from the counter at once (docs/adr/0063). */
export const NUMBER_BLOCK = 20;

interface NumberBlock {
  next: number;
  end: number;
  refill?: Promise<void>;
}
const numberBlocks = new WeakMap<object, NumberBlock>();

/**
 * "TM-1001", "TM-1002", … from one counter document ($inc). FerretDB 1.x applies an update as a
 * read then a write, so two increments at the same moment can both read 5 and both write 6 (seen:
 * two requests numbered alike): the increment runs under a Redis lock. Each replica takes a block of
 * NUMBER_BLOCK numbers under it and hands them out from memory, so one send in twenty waits for the
 * lock instead of every send: with the lock on every send, sends could not pass 13 a second
 * (24 buyers at once: p50 912 ms). Numbers stay unique; across replicas they are no longer in the
 * order of sending, and a stopped replica's unused numbers are skipped.
 * (No unique index on the number: on the local stack the collection predates it and belongs to
 * another database role.)
 */
export async function nextNumber(models: OrderModels, redis: RedisClient): Promise<string> {
  let block = numberBlocks.get(models.Counter);
  if (!block) {
    block = { next: 0, end: 0 };
    numberBlocks.set(models.Counter, block);
  }
  const mine = block;
  while (mine.next >= mine.end) {
    mine.refill ??= takeNumbers(models, redis)
      .then(({ first, end }) => {
        mine.next = first;
        mine.end = end;
      })
      .finally(() => {
        mine.refill = undefined;
      });
    await mine.refill;
  }
  return `TM-${1000 + mine.next++}`;
}

async function takeNumbers(models: OrderModels, redis: RedisClient): Promise<{ first: number; end: number }> {
  return withLocks(
    redis,
    ['orders:lock:counter:request_number'],
    async () => {
      const counter = await models.Counter.findOneAndUpdate(
        { _id: 'request_number' },
        { $inc: { seq: NUMBER_BLOCK } },
        { upsert: true, new: true },
      ).lean<{
        seq: number;
      }>();
      const last = counter?.seq ?? NUMBER_BLOCK;
      return { first: last - NUMBER_BLOCK + 1, end: last + 1 };
    },
    // 503 with Retry-After, not 500: many sends at once can wait out the lock (issue 24's concurrent interleavings).
    { busy: () => unavailable('SENDING_BUSY', 'Sending is busy for a moment; please send the request again.', 2) },
  );
}

/**
 * Requests numbered alike before the counter was locked (the counter race nextNumber describes):
 * the first sent keeps its number, the others get new ones.
 * Returns the requests renumbered.
 * Safe with several replicas starting at once (docs/adr/0039): each request is renumbered under its
 * own lock, and only while it still has the number it was found with, so a request another replica
 * renumbered first is left alone (and no counter value is taken for it).
 */
export async function renumberDuplicates(
  models: OrderModels,
  redis: RedisClient,
): Promise<{ request_id: string; from: string; to: string }[]> {
  const all = await models.Request.find({}, { request_id: 1, number: 1, created_at: 1 }).sort({ created_at: 1 }).lean();
  const seen = new Set<string>();
  const changed: { request_id: string; from: string; to: string }[] = [];
  for (const request of all) {
    if (!seen.has(request.number)) {
      seen.add(request.number);
      continue;
    }
    const to = await withLocks(
      redis,
      [requestLockKey(request.request_id)],
      async () => {
        const now = await models.Request.findOne({ request_id: request.request_id }, { number: 1 }).lean();
        if (now?.number !== request.number) return undefined;
        const next = await nextNumber(models, redis);
        await models.Request.updateOne({ request_id: request.request_id }, { $set: { number: next } });
        return next;
      },
      { busy: () => new Error(`request ${request.request_id} stayed locked; renumbering it on the next start`) },
    );
    if (to) changed.push({ request_id: request.request_id, from: request.number, to });
  }
  return changed;
}
