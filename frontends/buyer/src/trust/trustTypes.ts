// What the buyer reads of a farmer's trust (issue 26, contracts/src/reviews.ts): reviews, the rating and the
// response figures, from the orders service.
import type { FarmerRating, FarmerTrust, Review, ReviewPage } from '@tuber/contracts';

export type { FarmerRating, FarmerTrust, Review, ReviewPage };
export { RATING_SHOWN_FROM, REVIEW_TEXT_MAX } from '@tuber/contracts';

export const trustPath = (farmerId: string) => `/orders/farmers/${encodeURIComponent(farmerId)}/trust`;
export const reviewsPath = (farmerId: string, limit: number, cursor?: string | null) =>
  `/orders/farmers/${encodeURIComponent(farmerId)}/reviews?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
export const reviewPath = (requestId: string) => `/orders/requests/${encodeURIComponent(requestId)}/review`;
/** The farmer page's reads (issue 26): the farm (profile service) and its products (catalog). */
export const farmPath = (farmerId: string) => `/profile/farmers/${encodeURIComponent(farmerId)}`;
export const farmerProductsPath = (farmerId: string, cursor?: string | null) =>
  `/catalog/farmers/${encodeURIComponent(farmerId)}/products?limit=12${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
