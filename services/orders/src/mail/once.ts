// A message sent at least once and, short of a crash between the send and its mark, never twice (ADR 0031):
// a record `key` is claimed before the send and marked sent after. A redelivery finds it sent and stops; a
// claim older than CLAIM_STALE_MS is taken to be a sender that died mid-way, and the message goes again.
// Mails and SMS alerts share it (their keys differ).
import type { FastifyBaseLogger } from 'fastify';
import type { Model } from 'mongoose';
import type { MailDoc } from '../domain/models.js';

/** A claim older than this is taken to be a sender that died mid-way; the message is sent again. */
export const CLAIM_STALE_MS = 60_000;

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/** True when `key` was sent before (nothing to do). */
export async function sentBefore(Mail: Model<MailDoc>, key: string): Promise<boolean> {
  return (await Mail.findById(key).lean())?.state === 'sent';
}

/**
 * Claims `key`, runs `send`, marks it sent. Resolves false when it was sent already; throws (for the event
 * to come back) when another delivery holds a fresh claim or `send` failed (the claim is freed first).
 */
export async function sendOnce(
  Mail: Model<MailDoc>,
  key: string,
  record: { to: string; subject: string },
  send: () => Promise<unknown>,
  log: FastifyBaseLogger,
): Promise<boolean> {
  const now = new Date();
  try {
    await Mail.create({ _id: key, state: 'sending', claimed_at: now, ...record });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const claim = await Mail.findById(key).lean();
    if (!claim || claim.state === 'sent') return false;
    if (now.getTime() - new Date(claim.claimed_at).getTime() < CLAIM_STALE_MS) {
      throw new Error(`${key} is being sent by another delivery; checking again later`);
    }
    const taken = await Mail.updateOne({ _id: key, state: 'sending', claimed_at: claim.claimed_at }, { $set: { claimed_at: now } });
    if (taken.matchedCount === 0) throw new Error(`${key} was claimed meanwhile; checking again later`);
    log.warn({ key }, 'a previous attempt at this message stopped before it was marked sent; sending it now');
  }
  try {
    await send();
  } catch (err) {
    // Not sent: free the claim so the redelivery may try at once.
    await Mail.deleteOne({ _id: key, state: 'sending' }).catch(() => undefined);
    throw err;
  }
  await Mail.updateOne({ _id: key }, { $set: { state: 'sent', sent_at: new Date() } });
  return true;
}
