// Farmer insights (issue 12): owned by the insights work. This is a placeholder that does nothing
// until it is written; the orders app calls it once at build time.
import type { EventBus, RedisClient, ServiceApp } from '@tuber/kit';
import type { Connection } from 'mongoose';
import type { ProductModel } from '../domain/products.js';

export interface InsightsDeps {
  /** The orders service's MongoDB connection (database "orders"). */
  mongo: Connection;
  redis: RedisClient;
  bus: EventBus;
  /** The orders service's product projection (product_id, farmer_id, product_name, …). */
  products: ProductModel;
}

export async function useInsights(_app: ServiceApp, _deps: InsightsDeps): Promise<void> {}
