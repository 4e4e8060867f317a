// Reviews from real sales and a farmer's trust figures (issue 26, docs/adr/0069). A buyer rates a request once
// it is fulfilled (one review per request, changeable for REVIEW_EDIT_DAYS); the farmer may answer once, in
// public. A farmer's rating is the mean of their reviews with its count, shown only from RATING_SHOWN_FROM
// reviews; the response figures cover RESPONSE_WINDOW_DAYS and are shown from RESPONSE_SHOWN_FROM requests.
import { Type, type Static } from '@sinclair/typebox';

export const REVIEW_EDIT_DAYS = 7;
export const REVIEW_TEXT_MAX = 500;
/** Below this many reviews a farmer is "New on Tuber Market" and no mean is given. */
export const RATING_SHOWN_FROM = 3;
/** Below this many requests in the window the response figures are not given. */
export const RESPONSE_SHOWN_FROM = 5;
export const RESPONSE_WINDOW_DAYS = 90;

const stars = Type.Integer({ minimum: 1, maximum: 5, description: '1 to 5 stars' });
const reviewText = Type.String({ maxLength: REVIEW_TEXT_MAX, description: `at most ${REVIEW_TEXT_MAX} characters; empty for none` });

/** PUT /api/orders/requests/:id/review (the request's buyer, once it is fulfilled). */
export const ReviewInput = Type.Object({ stars, text: Type.Optional(reviewText) }, { additionalProperties: false });
export type ReviewInput = Static<typeof ReviewInput>;

/** PUT /api/orders/requests/:id/review/answer (the request's farmer, once). */
export const ReviewAnswerInput = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: REVIEW_TEXT_MAX, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type ReviewAnswerInput = Static<typeof ReviewAnswerInput>;

export const Review = Type.Object({
  request_id: Type.String(),
  /** The request's number (R-…), as both parties know it. */
  number: Type.String(),
  farmer_id: Type.String(),
  /** The buyer as others see them: first name and the initial of the last ("Ada O."). */
  buyer_name: Type.String(),
  stars,
  text: Type.String(),
  /** The names of the products the sale was for. */
  products: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  /** Until when the buyer may change it. */
  editable_until: Type.String({ format: 'date-time' }),
  answer: Type.Optional(Type.Object({ text: Type.String(), at: Type.String({ format: 'date-time' }) })),
});
export type Review = Static<typeof Review>;

export const ReviewPage = Type.Object({ items: Type.Array(Review), next_cursor: Type.Union([Type.String(), Type.Null()]) });
export type ReviewPage = Static<typeof ReviewPage>;

/** A farmer's rating: the count always, the mean (one decimal) only from RATING_SHOWN_FROM reviews. */
export const FarmerRating = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  mean: Type.Optional(Type.Number({ minimum: 1, maximum: 5 })),
});
export type FarmerRating = Static<typeof FarmerRating>;

/** The rating as shown: the count always; the mean, to one decimal, only from RATING_SHOWN_FROM reviews. */
export function ratingOf(count: number, starsSum: number): FarmerRating {
  if (count < RATING_SHOWN_FROM) return { count };
  return { count, mean: Math.round((starsSum / count) * 10) / 10 };
}

/** How a farmer answers and delivers, over the last RESPONSE_WINDOW_DAYS (absent below RESPONSE_SHOWN_FROM requests). */
export const ResponseFigures = Type.Object({
  /** Requests received in the window, less those the buyer cancelled before any answer. */
  requests: Type.Integer({ minimum: 0 }),
  /** Median minutes from a request to the farmer's first answer (accept, decline or cancel); absent with no answer yet. */
  median_answer_minutes: Type.Optional(Type.Number({ minimum: 0 })),
  /** Requests answered within 24 h, of those that are answered or older than 24 h. */
  answered_within_day: Type.Integer({ minimum: 0 }),
  answered_of: Type.Integer({ minimum: 0 }),
  /** Accepted requests that were fulfilled, of the accepted ones that have ended (fulfilled or cancelled). */
  fulfilled: Type.Integer({ minimum: 0 }),
  fulfilled_of: Type.Integer({ minimum: 0 }),
});
export type ResponseFigures = Static<typeof ResponseFigures>;

/** GET /api/orders/farmers/:farmerId/trust (signed in). */
export const FarmerTrust = Type.Object({
  farmer_id: Type.String(),
  rating: FarmerRating,
  response: Type.Optional(ResponseFigures),
});
export type FarmerTrust = Static<typeof FarmerTrust>;

/** GET /api/profile/farmers/:farmerId (signed in): what a farmer page shows of the farm; no contact details. */
export const FarmerPublic = Type.Object({
  farmer_id: Type.String(),
  business_name: Type.String(),
  location: Type.String(),
  tuber: Type.Array(Type.String()),
  /** When the farmer's profile was made. */
  member_since: Type.String({ format: 'date-time' }),
  /** The farm's phone number was checked by an SMS code (issue 26); absent from profile services before it. */
  phone_verified: Type.Optional(Type.Boolean()),
});
export type FarmerPublic = Static<typeof FarmerPublic>;
