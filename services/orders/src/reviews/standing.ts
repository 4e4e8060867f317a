// A reviewer's standing (issue 26): when moderators suspend an account, its reviews stop counting and stop
// showing on the farmer's page (a farmer's own made-up buyers are the case this is for); when it is restored,
// they come back. The reviews are marked, never deleted, so the request's two parties still see theirs.
// Each review keeps the revision of the last AccountModerated applied to it: an older event arriving late
// changes nothing. Every farmer whose reviews changed gets their rating recounted (and the cards with it).
import type { EventPayload, AccountModerated } from '@tuber/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ReviewDoc, ReviewModels } from './model.js';
import type { RecountRating } from './rating.js';

type Standing = Pick<EventPayload<typeof AccountModerated>, 'user_id' | 'suspended' | 'revision'>;

/** Marks the account's reviews as its standing says; answers how many reviews changed. */
export async function applyReviewerStanding(
  deps: { reviews: ReviewModels; recount: RecountRating; log: FastifyBaseLogger },
  standing: Standing,
): Promise<number> {
  const { Review } = deps.reviews;
  const older = {
    $or: [{ standing_revision: { $exists: false } }, { standing_revision: null }, { standing_revision: { $lt: standing.revision } }],
  };
  const changing = await Review.find({ buyer_id: standing.user_id, ...older }, { farmer_id: 1, withheld: 1 }).lean<
    Pick<ReviewDoc, 'farmer_id' | 'withheld'>[]
  >();
  if (changing.length === 0) return 0;
  await Review.updateMany(
    { buyer_id: standing.user_id, ...older },
    { $set: { withheld: standing.suspended, standing_revision: standing.revision } },
  );
  const farmers = new Set(changing.filter((review) => (review.withheld ?? false) !== standing.suspended).map((review) => review.farmer_id));
  for (const farmerId of farmers) await deps.recount(farmerId, deps.log);
  deps.log.info(
    { userId: standing.user_id, suspended: standing.suspended, reviews: changing.length, farmers: farmers.size },
    standing.suspended ? 'a suspended account’s reviews no longer count' : 'a restored account’s reviews count again',
  );
  return changing.length;
}
