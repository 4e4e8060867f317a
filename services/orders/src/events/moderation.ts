// A moderator's decisions, enforced in the orders service (issue 26, docs/adr/0071):
// - a hidden listing cannot be requested (its copy is marked, the send checks say "unavailable");
// - a suspended account's open requests (sent or accepted, as buyer or as farmer) are cancelled, in its name,
//   with a reason that says so; the other party is told as for any cancel (mail, unread), and an accepted
//   request's stock goes back to the listing through OrderCancelled, as always;
// - a suspended account's reviews stop counting and showing, and come back when it is restored
//   (reviews/standing.ts), with the farmers' ratings recounted.
import { AccountModerated, ListingModerated } from '@tuber/contracts';
import { publishRecorded, withLocks, type EventBus, type RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { requestLockKey } from '../domain/locks.js';
import type { OrderModels, RequestDoc } from '../domain/models.js';
import { orderEvent } from '../domain/order-events.js';
import type { ProductModel } from '../domain/products.js';
import type { ReviewModels } from '../reviews/model.js';
import type { RecountRating } from '../reviews/rating.js';
import { applyReviewerStanding } from '../reviews/standing.js';

/** The cancel reason the other party reads (in the mails' language the reason is quoted as written). */
export const SUSPENDED_REASON = 'This account was suspended by Tuber Market’s moderators.';
const OPEN = ['sent', 'accepted'];

export async function followModeration(
  bus: EventBus,
  deps: {
    models: OrderModels;
    products: ProductModel;
    redis: RedisClient;
    log: FastifyBaseLogger;
    unreadChanged?: (ids: string[]) => void;
    /** The reviews and the rating recount: a suspended account's reviews stop counting. */
    reviews: { models: ReviewModels; recount: RecountRating };
  },
): Promise<void> {
  const { models, products, redis, log } = deps;

  await bus.consume(ListingModerated, { durable: 'orders-listing-moderated' }, async (event) => {
    await products.updateOne(
      {
        product_id: event.product_id,
        $or: [{ moderation_revision: { $exists: false } }, { moderation_revision: null }, { moderation_revision: { $lt: event.revision } }],
      },
      { $set: { hidden: event.hidden, moderation_revision: event.revision } },
    );
  });

  await bus.consume(AccountModerated, { durable: 'orders-account-moderated' }, async (event) => {
    // Both ways: a restored account's reviews count again. Applied again on a redelivery, it changes nothing.
    await applyReviewerStanding({ reviews: deps.reviews.models, recount: deps.reviews.recount, log }, event);
    if (!event.suspended) return; // restoring brings nothing else back: cancelled requests stay cancelled
    const userId = event.user_id;
    const mine = [
      ...(await models.Request.find({ buyer_id: userId }, { request_id: 1, status: 1 }).lean()),
      ...(await models.Request.find({ farmer_id: userId }, { request_id: 1, status: 1 }).lean()),
    ].filter((doc) => OPEN.includes(doc.status));
    let cancelled = 0;
    for (const { request_id: requestId } of mine) {
      const done = await withLocks(
        redis,
        [requestLockKey(requestId)],
        async () => {
          const doc = await models.Request.findOne({ request_id: requestId }, { outbox: 0 }).lean<RequestDoc>();
          if (!doc || !OPEN.includes(doc.status)) return false;
          const party = doc.buyer_id === userId ? 'buyer' : 'farmer';
          const other = party === 'buyer' ? 'farmer' : 'buyer';
          const now = new Date();
          const revision = doc.revision + 1;
          const event = orderEvent(doc, revision, now, {
            status: 'cancelled',
            reason: SUSPENDED_REASON,
            by: party,
            wasAccepted: doc.status === 'accepted',
          });
          const written = await models.Request.updateOne(
            { request_id: requestId, status: doc.status, revision: doc.revision },
            {
              $set: { status: 'cancelled', revision, updated_at: now, last_change_by: party, [`unread_${other}`]: true },
              $push: { history: { status: 'cancelled', at: now, by: party, reason: SUSPENDED_REASON }, outbox: event },
            },
          );
          if (written.matchedCount === 0) throw new Error(`request ${requestId} changed meanwhile; the suspension comes back to it`);
          await publishRecorded(models.Request, { request_id: requestId }, bus, log);
          deps.unreadChanged?.([doc.buyer_id, doc.farmer_id]);
          return true;
        },
        { busy: () => new Error(`request ${requestId} is being changed; the suspension comes back to it`) },
      );
      if (done) cancelled += 1;
    }
    log.info({ userId, cancelled }, 'a suspended account’s open requests cancelled');
  });
}
