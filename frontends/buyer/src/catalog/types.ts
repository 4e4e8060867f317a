// What the buyer pages read from the API (docs/api.md): catalog products and the farmer contact card.

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
  /** Naira with at most 2 decimals (ADR 0010): convert with nairaToKobo before any arithmetic. */
  price: number;
  kg: number;
  tuber_type: string;
  images: string[];
  /** Card-sized WebP variants of `images`, same order. */
  image_cards: string[];
  image_thumbs: string[];
  location: string;
  business_name: string;
  cultural: string;
  health?: string | null;
  nutrition?: Nutrition | null;
  created_at: string;
}

export interface ProductPage {
  items: Product[];
  next_cursor: string | null;
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
}

export const FEED_PAGE_SIZE = 12;

export function feedPath(cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(FEED_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  return `/catalog/products?${query}`;
}

export const productPath = (productId: string) => `/catalog/products/${encodeURIComponent(productId)}`;
export const farmerContactPath = (farmerId: string) => `/profile/farmers/${encodeURIComponent(farmerId)}/contact`;
export const productDetailRoute = (productId: string) => `/dashboard/buyer/${encodeURIComponent(productId)}`;
