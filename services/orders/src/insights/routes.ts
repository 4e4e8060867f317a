// POST /api/orders/activity: a signed-in user looked at a product, clicked to contact its farmer or
// put it in the cart. GET /api/orders/insights: what the farmer's products drew, over 7 or 30 days.
import { Type } from '@sinclair/typebox';
import { Activity, Insights } from '@tuber/contracts';
import { notFound, type RedisClient, type ServiceApp } from '@tuber/kit';
import { INSIGHT_WINDOWS, lagosDay, windowDays, type InsightWindow } from './days.js';
import { INSIGHT_KEYS, type InsightStore } from './store.js';
import { summarise } from './summary.js';
import type { ProductDirectory } from './products.js';

/**
 * The same account, product and kind counts once a Lagos day (issue 24: the figures are distinct buyers,
 * so neither a reload nor a competitor posting in a loop moves them). The record outlives its day a little.
 */
export const SEEN_KEPT_SECONDS = 26 * 3600;

/**
 * Activity reports per user: a person opens a product page every few seconds at most; a script
 * posting in a loop is cut off before it can inflate anyone's figures much (each product and kind
 * counts once a minute anyway).
 */
export const ACTIVITY_LIMIT = { max: 60, windowSeconds: 60 };

export const UNKNOWN_PRODUCT_MESSAGE = 'This product does not exist or has been removed.';

const error = Type.Ref('ErrorResponse');

export function insightRoutes(app: ServiceApp, deps: { store: InsightStore; redis: RedisClient; products: ProductDirectory }) {
  const { store, redis, products } = deps;

  app.post(
    `${app.apiPrefix}/activity`,
    {
      onRequest: [
        app.authenticate,
        app.limitPerUser({
          name: 'insights-activity',
          max: ACTIVITY_LIMIT.max,
          timeWindow: ACTIVITY_LIMIT.windowSeconds * 1000,
          what: 'activity reports',
        }),
      ],
      schema: {
        summary: "Count a buyer's view, contact click or cart add of a product for its farmer's insights",
        description:
          "Answers 204 whether or not it counted. Only buyers count (the product's own farmer and other farmers never), and each buyer counts once a day (Africa/Lagos) per product and kind: the figures are distinct buyers.",
        tags: ['insights'],
        security: [{ bearer: [] }],
        body: Activity,
        response: {
          204: Type.Null({ description: 'Taken (counted, or ignored as not a buyer’s, or as a repeat the same day).' }),
          400: error,
          404: error,
        },
      },
    },
    async (request, reply) => {
      const { product_id, kind } = request.body;
      const userId = request.identity.userId;
      const product = await products.listedById(product_id);
      if (!product) throw notFound('PRODUCT_NOT_FOUND', UNKNOWN_PRODUCT_MESSAGE);
      // A farmer looking at their own product, or at a competitor's, is not a buyer's interest.
      if (product.farmer_id === userId || !request.identity.roles.includes('buyer')) return reply.code(204).send(null);
      const day = lagosDay(new Date());
      const seen = INSIGHT_KEYS.seen(day, userId, product_id, kind);
      const first = await redis.set(seen, '1', { NX: true, EX: SEEN_KEPT_SECONDS });
      if (first === null) return reply.code(204).send(null);
      try {
        await store.countActivity(product.farmer_id, product_id, day, kind);
      } catch (err) {
        // Not counted: let the same report count when it is sent again.
        await redis.del(seen).catch(() => undefined);
        throw err;
      }
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${app.apiPrefix}/insights`,
    {
      onRequest: app.requireRole('farmer'),
      schema: {
        summary: "The signed-in farmer's insights: per product and per day, over the last 7 or 30 days (Africa/Lagos days)",
        tags: ['insights'],
        security: [{ bearer: [] }],
        querystring: Type.Object(
          {
            days: Type.Optional(
              Type.Unsafe<InsightWindow>({
                type: 'integer',
                enum: [...INSIGHT_WINDOWS],
                default: 7,
                description: 'How many days, ending today: 7 or 30 (default 7).',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Insights, 400: error },
      },
    },
    async (request) => {
      const farmerId = request.identity.userId;
      const days: InsightWindow = request.query.days === 30 ? 30 : 7;
      const today = lagosDay(new Date());
      const series = windowDays(today, days);
      const [records, names] = await Promise.all([store.records(farmerId, series[0]!, today), products.namesOf(farmerId)]);
      return summarise({ days, today, records, products: names });
    },
  );
}
