// The reviews of requests and each farmer's rating summary (issue 26, docs/adr/0069), in the orders database:
// a review belongs to one request, which this service owns, so "only after a real sale" is checked where the
// sale is recorded.
//   reviews           one per request (request_id unique): stars, text, the farmer's answer
//   farmer_ratings    per farmer: count and stars summed, a revision, and the FarmerRatingChanged event to
//                     publish (outbox); written under the farmer's rating lock
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { OutboxField, redisDocumentLock, type RedisClient } from '@tuber/kit';

export const ReviewSchema = new Schema(
  {
    request_id: { type: String, required: true },
    number: { type: String, required: true },
    farmer_id: { type: String, required: true },
    buyer_id: { type: String, required: true },
    /** "Ada O.": what others see of the buyer. */
    buyer_name: { type: String, required: true },
    stars: { type: Number, required: true, min: 1, max: 5 },
    text: { type: String, default: '' },
    products: { type: [String], default: [] },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    answer_text: { type: String },
    answer_at: { type: Date },
    /** The buyer's account is suspended: the review neither counts nor shows on the farmer's page (standing.ts). */
    withheld: { type: Boolean },
    /** The revision of the last AccountModerated applied. */
    standing_revision: { type: Number },
  },
  { collection: 'reviews', versionKey: false },
);
ReviewSchema.index({ request_id: 1 }, { unique: true });
ReviewSchema.index({ farmer_id: 1, created_at: -1 });
ReviewSchema.index({ buyer_id: 1 });
export type ReviewDoc = InferSchemaType<typeof ReviewSchema>;

export const FarmerRatingSchema = new Schema(
  {
    farmer_id: { type: String, required: true },
    count: { type: Number, required: true },
    stars_sum: { type: Number, required: true },
    revision: { type: Number, required: true },
    updated_at: { type: Date, required: true },
    outbox: OutboxField,
  },
  { collection: 'farmer_ratings', versionKey: false },
);
FarmerRatingSchema.index({ farmer_id: 1 }, { unique: true });
export type FarmerRatingDoc = InferSchemaType<typeof FarmerRatingSchema>;

export interface ReviewModels {
  Review: Model<ReviewDoc>;
  FarmerRating: Model<FarmerRatingDoc>;
}

export const reviewModels = (connection: Connection): ReviewModels => ({
  Review: connection.models.Review ?? connection.model('Review', ReviewSchema),
  FarmerRating: connection.models.FarmerRating ?? connection.model('FarmerRating', FarmerRatingSchema),
});

/** orders:lock:rating:<farmer_id>: every write of a farmer's rating summary, the outbox's included. */
export const ratingLockKey = (farmerId: string) => `orders:lock:rating:${farmerId}`;
export const ratingDocumentLock = (redis: RedisClient) => redisDocumentLock(redis, 'farmer_id', ratingLockKey);
/** orders:lock:review:<request_id>: writing one request's review (the buyer's edit, the farmer's answer). */
export const reviewLockKey = (requestId: string) => `orders:lock:review:${requestId}`;
