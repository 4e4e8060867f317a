// requests_received / requests_accepted: durable consumers of the order events add each request to
// the day documents of the products it names, once per (request, product) however often the event
// is delivered (the request id is kept in the document the count is in).
import { OrderAccepted, OrderSent, type EventPayload } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import { lagosDay } from './days.js';
import type { InsightStore, RequestCount } from './store.js';

export const INSIGHT_CONSUMERS = {
  sent: 'orders-insights-sent',
  accepted: 'orders-insights-accepted',
} as const;

type OrderEvent = EventPayload<typeof OrderSent> | EventPayload<typeof OrderAccepted>;

/** Counts one request event into each of its products' day (the Lagos day of the transition). */
export async function countRequest(store: InsightStore, event: OrderEvent, count: RequestCount): Promise<number> {
  const day = lagosDay(new Date(event.at));
  let counted = 0;
  for (const productId of new Set(event.lines.map((line) => line.product_id))) {
    if (await store.countRequest(event.farmer_id, productId, day, count, event.request_id)) counted++;
  }
  return counted;
}

export async function followRequests(bus: EventBus, store: InsightStore): Promise<void> {
  await bus.consume(OrderSent, { durable: INSIGHT_CONSUMERS.sent }, async (event) => {
    await countRequest(store, event, 'requests_received');
  });
  await bus.consume(OrderAccepted, { durable: INSIGHT_CONSUMERS.accepted }, async (event) => {
    await countRequest(store, event, 'requests_accepted');
  });
}
