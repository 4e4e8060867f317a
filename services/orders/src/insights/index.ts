// Farmer insights (issue 12): buyers' views, contact clicks and cart adds reported by the front ends,
// and order requests from the service's own events, counted per product and Lagos day. ADR 0034.
import type { Connection } from 'mongoose';
import type { EventBus, RedisClient, ServiceApp } from '@tuber/kit';
import type { ProductModel } from '../domain/products.js';
import { followRequests } from './consumer.js';
import { insightDayModel } from './model.js';
import { productDirectory } from './products.js';
import { insightRoutes } from './routes.js';
import { InsightStore } from './store.js';

export interface InsightsDeps {
  /** The orders service's MongoDB connection (database "orders"). */
  mongo: Connection;
  redis: RedisClient;
  /** Absent for an in-process copy that must not take the running service's events. */
  bus?: EventBus;
  /** The service's product projection (product_id, farmer_id, product_name, deleted). */
  products: ProductModel;
}

export async function useInsights(app: ServiceApp, deps: InsightsDeps): Promise<void> {
  const Day = insightDayModel(deps.mongo);
  await Day.init();
  const store = new InsightStore(Day, deps.redis);
  insightRoutes(app, { store, redis: deps.redis, products: productDirectory(deps.products) });
  if (deps.bus) await followRequests(deps.bus, store);
}
