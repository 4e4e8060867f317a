// What the buyer pages read from the API (docs/api.md, contracts/src/api.ts): catalog products and the farmer
// contact card. Product fields follow the contract; the buyer treats a product without the issue-11 fields
// (an older server or cached copy) as sold per kg and available, so nothing breaks while a rollout runs.
import type { FeedSort, ProductStatus, SellingUnit, TuberSize, TuberType } from '@tuber/contracts';

export type { FeedSort, ProductStatus, SellingUnit, TuberSize, TuberType };

export interface Nutrition {
  serving_weight_grams?: number | null;
  serving_qty?: number | null;
  calories?: number | null;
  dietary_fiber?: number | null;
  protein?: number | null;
  saturated_fat?: number | null;
  sugars?: number | null;
  potassium?: number | null;
  sodium?: number | null;
  total_fat?: number | null;
}

export interface Product {
  product_id: string;
  farmer_id: string;
  product_name: string;
  description: string;
  /** Naira per selling unit with at most 2 decimals (ADR 0010): convert with nairaToKobo before any arithmetic. */
  price: number;
  unit?: SellingUnit;
  tuber_size?: TuberSize | null;
  /** Average kg in one unit (1 for kg). */
  unit_weight_kg?: number;
  /** Naira per kg, computed by the catalog. */
  price_per_kg?: number;
  /** Stock in the selling unit. */
  quantity?: number;
  /** Stock in kg (quantity × unit_weight_kg). */
  kg: number;
  status?: ProductStatus;
  /** YYYY-MM-DD, with status next_harvest. */
  next_harvest?: string | null;
  tuber_type: string;
  images: string[];
  /** Card-sized WebP variants of `images`, same order. */
  image_cards: string[];
  image_thumbs: string[];
  location: string;
  business_name: string;
  /** The farmer's rating (issue 26): absent before any review, and from servers before it. */
  farmer_rating?: { count: number; mean?: number };
  cultural: string;
  health?: string | null;
  nutrition?: Nutrition | null;
  created_at: string;
  updated_at?: string;
  revision?: number;
}

export interface ProductPage {
  items: Product[];
  next_cursor: string | null;
  /** The search as the catalog read it, when words of it matched nothing and were corrected (issue 25). */
  searched_as?: string;
  /** On an empty first page: a search that would find something. */
  did_you_mean?: string;
}

export interface FarmerContact {
  farmer_id: string;
  business_name: string;
  location: string;
  phone: string;
  email: string;
  tuber: string[];
}

export interface BuyerProfile {
  user_id: string;
  user_type: 'buyer' | 'farmer';
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  /** Proven by an SMS code (issue 26); absent from profile services before it. */
  phone_verified?: boolean;
}

export const FEED_PAGE_SIZE = 12;

export const productPath = (productId: string) => `/catalog/products/${encodeURIComponent(productId)}`;
export const farmerContactPath = (farmerId: string) => `/profile/farmers/${encodeURIComponent(farmerId)}/contact`;
export const productDetailRoute = (productId: string) => `/dashboard/buyer/${encodeURIComponent(productId)}`;
export const FEED_ROUTE = '/dashboard/buyer';
