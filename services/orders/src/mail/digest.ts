// The farmer's digest of new requests (issue 24, docs/adr/0060). A request over its window's bound of
// single mails is held in `mail_digest_entries` (MongoDB, so a replica that dies loses nothing); every
// replica looks every few seconds, and the one holding the lease mails each farmer the held requests
// whose window has ended, in one mail. Never twice: the digest's mail record `digest:<farmer>:<first>`
// is claimed before sending and names the requests it carried, which are marked mailed after.
import { DEFAULT_LOCALE, localeOf } from '@tuber/contracts';
import { everyUnderLease, type RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { DigestEntryDoc, OrderModels } from '../domain/models.js';
import type { Mailer } from './mailer.js';
import { digestMail } from './messages.js';

/** How often each replica looks for digests that are due. */
export const DIGEST_SWEEP_MS = 5_000;
/** One replica at a time sends digests; a holder that died frees it after this. */
const DIGEST_LEASE = { key: 'orders:lease:request-digests', ttlMs: 120_000 };
/** Digests mailed per sweep at most (the next sweep takes the rest). */
const FARMERS_PER_SWEEP = 50;
/** Every this many sweeps, one also finds entries held without the `waiting` mark (an older release's). */
export const UNMARKED_SWEEP_EVERY = 60;

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

export interface HeldRequest {
  requestId: string;
  farmerId: string;
  number: string;
  buyerName: string;
  productNames: string[];
  receivedAt: Date;
  dueAt: Date;
}

/** Holds a request for its farmer's digest; holding it again (a redelivered event) changes nothing. */
export async function holdForDigest(models: OrderModels, held: HeldRequest): Promise<void> {
  try {
    await models.DigestEntry.create({
      _id: held.requestId,
      farmer_id: held.farmerId,
      number: held.number,
      buyer_name: held.buyerName,
      product_names: held.productNames,
      received_at: held.receivedAt,
      due_at: held.dueAt,
      waiting: true,
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

export interface DigestDeps {
  models: OrderModels;
  mailer: Mailer;
  publicUrl: string;
  windowMs: number;
  log: FastifyBaseLogger;
}

/**
 * Mails every farmer whose held requests are due; answers how many digests went out. `unmarked` also
 * finds due entries without the `waiting` mark (held by an older release).
 */
export async function sendDueDigests(deps: DigestDeps, now: Date = new Date(), unmarked = false): Promise<number> {
  const { models } = deps;
  const waiting = unmarked ? { mailed_at: { $exists: false } } : { waiting: true };
  const due = await models.DigestEntry.find({ ...waiting, due_at: { $lte: now } }, { farmer_id: 1 })
    .sort({ due_at: 1 })
    .lean<Pick<DigestEntryDoc, 'farmer_id'>[]>();
  const farmers = [...new Set(due.map((entry) => entry.farmer_id))].slice(0, FARMERS_PER_SWEEP);
  let sent = 0;
  for (const farmerId of farmers) {
    try {
      if (await sendDigest(deps, farmerId, now)) sent++;
    } catch (err) {
      // This farmer's digest waits for the next sweep; the others go on.
      deps.log.warn({ err, farmerId }, 'a digest of new requests could not be sent now; trying again at the next sweep');
    }
  }
  return sent;
}

async function sendDigest(deps: DigestDeps, farmerId: string, now: Date): Promise<boolean> {
  const { models, mailer, log } = deps;
  const { Mail, DigestEntry, Contact } = models;
  const entries = await DigestEntry.find({ farmer_id: farmerId, mailed_at: { $exists: false }, due_at: { $lte: now } })
    .sort({ received_at: 1, _id: 1 })
    .lean<DigestEntryDoc[]>();
  if (entries.length === 0) return false;
  const key = `digest:${farmerId}:${entries[0]!._id}`;
  // Narrowed by the farmer too: FerretDB hands the equality, not the `$in`, to PostgreSQL.
  const markMailed = (ids: string[]) =>
    DigestEntry.updateMany({ farmer_id: farmerId, _id: { $in: ids } }, { $set: { mailed_at: new Date() }, $unset: { waiting: 1 } });

  const record = await Mail.findById(key).lean();
  if (record?.state === 'sent') {
    // Sent by a holder that stopped before marking its requests: mark exactly those; any others go next sweep.
    await markMailed(record.request_ids ?? []);
    return false;
  }
  const contact = await Contact.findOne({ user_id: farmerId }).lean();
  if (contact?.deleted || !contact?.email) {
    // A single mail to this farmer was sent before, so an address is known unless the account is gone.
    log.info({ farmerId, held: entries.length }, 'farmer account deleted or without an address; held requests not mailed');
    if (contact?.deleted) await markMailed(entries.map((entry) => entry._id));
    return false;
  }
  const known = await models.AccountLocale.findById(farmerId).lean();
  const locale = localeOf(known?.locale) ?? DEFAULT_LOCALE;
  const mail = digestMail({
    requests: entries.map((entry) => ({ number: entry.number, buyerName: entry.buyer_name, productNames: entry.product_names })),
    windowMinutes: Math.round(deps.windowMs / 60_000),
    publicUrl: deps.publicUrl,
    locale,
    recipientName: contact.business_name ?? undefined,
  });
  const ids = entries.map((entry) => entry._id);
  // Under the lease only one replica sends; a record left "sending" is a holder that died mid-way: send again.
  if (record) await Mail.updateOne({ _id: key }, { $set: { claimed_at: now, request_ids: ids, subject: mail.subject } });
  else await Mail.create({ _id: key, state: 'sending', claimed_at: now, to: contact.email, subject: mail.subject, request_ids: ids });
  await mailer.send({ to: contact.email, subject: mail.subject, text: mail.text, html: mail.html });
  await Mail.updateOne({ _id: key }, { $set: { state: 'sent', sent_at: new Date() } });
  await markMailed(ids);
  log.info({ key, farmerId, requests: ids.length, locale }, 'digest of new order requests mailed');
  return true;
}

/**
 * Every replica sweeps every DIGEST_SWEEP_MS; the lease lets one at a time send (docs/adr/0039). Stops
 * when the app closes.
 */
export function sweepDigests(redis: RedisClient, deps: DigestDeps, onClose: (stop: () => Promise<void>) => void): void {
  let sweeps = 0;
  everyUnderLease(
    redis,
    { ...DIGEST_LEASE, everyMs: DIGEST_SWEEP_MS },
    () => sendDueDigests(deps, new Date(), sweeps++ % UNMARKED_SWEEP_EVERY === 0),
    { log: deps.log, what: 'the digest sweep', onClose },
  );
}
