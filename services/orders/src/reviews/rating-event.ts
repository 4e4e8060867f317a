// The event a farmer's rating summary records (contracts/src/events.ts FarmerRatingChanged). Message id
// "rating:<farmer_id>:<revision>": one per change, so a re-publish is de-duplicated.
import { FarmerRatingChanged } from '@tuber/contracts';
import { pendingEvent, type PendingEvent } from '@tuber/kit';

export function ratingEvent(farmerId: string, count: number, starsSum: number, revision: number, at: Date): PendingEvent {
  return pendingEvent(
    FarmerRatingChanged,
    { farmer_id: farmerId, count, stars_sum: starsSum, revision, at: at.toISOString() },
    `rating:${farmerId}:${revision}`,
  );
}
