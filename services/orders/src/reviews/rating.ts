// A farmer's rating summary (issue 26, docs/adr/0069): recounted from the reviews that count, under the farmer's
// rating lock, with the FarmerRatingChanged event that tells the catalog (outbox). Used after a review is written
// and when a reviewer's account is suspended or restored (standing.ts).
import { conflict, publishRecorded, withLocks, type EventBus, type RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { ratingLockKey, type ReviewDoc, type ReviewModels } from './model.js';
import { ratingEvent } from './rating-event.js';

/** The reviews that count: all but those of an account moderators suspended (standing.ts). */
export const COUNTED_REVIEWS = { withheld: { $ne: true } } as const;

export type RecountRating = (farmerId: string, log: FastifyBaseLogger) => Promise<void>;

export function ratingCounter(deps: { reviews: ReviewModels; bus: EventBus; redis: RedisClient }): RecountRating {
  const { Review: Reviews, FarmerRating } = deps.reviews;
  return async (farmerId, log) => {
    await withLocks(
      deps.redis,
      [ratingLockKey(farmerId)],
      async () => {
        const all = await Reviews.find({ farmer_id: farmerId, ...COUNTED_REVIEWS }, { stars: 1 }).lean<Pick<ReviewDoc, 'stars'>[]>();
        const count = all.length;
        const starsSum = all.reduce((sum, review) => sum + review.stars, 0);
        const current = await FarmerRating.findOne({ farmer_id: farmerId }, { revision: 1 }).lean<{ revision: number }>();
        const revision = (current?.revision ?? 0) + 1;
        const at = new Date();
        const event = ratingEvent(farmerId, count, starsSum, revision, at);
        await FarmerRating.updateOne(
          { farmer_id: farmerId },
          { $set: { count, stars_sum: starsSum, revision, updated_at: at }, $push: { outbox: event } },
          { upsert: true },
        );
      },
      { busy: () => conflict('REVIEW_BUSY', "The farmer's rating is being counted right now; try again in a moment.") },
    );
    await publishRecorded(FarmerRating, { farmer_id: farmerId }, deps.bus, log);
  };
}
