// Stock follows the farmers' decisions on order requests (issue 12, ADR 0033): an accepted request
// takes its accepted quantities off each product, a cancelled one that was accepted gives them
// back. Exactly once per (request, product, take|give) however often an event is delivered: the
// product keeps the keys of the changes applied (`stock_ops`), and each change is ONE document
// update guarded on its key being absent — quantity, status, revision, updated_at and the
// ProductChanged event (outbox) together — made under the product's write lock, as edits are.
import { OrderAccepted, OrderCancelled, ProductChanged, type EventPayload } from '@tuber/contracts';
import { now as clockNow, pendingEvent, publishRecorded, type EventBus, type RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { applyStockChange, linesByProduct, stockOpKey, type StockOpKind, type Taken } from '../domain/order-stock.js';
import { withProductLock } from '../domain/product-lock.js';
import type { ProductModel } from '../domain/product.js';
import type { ReadModel } from '../domain/read-model.js';

export interface OrderStockDeps {
  bus: EventBus;
  Product: ProductModel;
  readModel: ReadModel;
  redis: RedisClient;
  log: FastifyBaseLogger;
}

/**
 * Deliveries of an OrderAccepted during which a take the stock cannot cover waits for gives on their
 * way (applyStockChange); at this one it stops at 0. With the consumer's back-off (1, 2, 4 s) that is
 * about 7 s after the first delivery.
 */
export const SHORTFALL_DELIVERIES = 4;

/** A stock change that cannot be made now (the lock is held, a give waits for its take): the event is redelivered. */
export class StockChangeLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StockChangeLater';
  }
}

type OrderEvent = EventPayload<typeof OrderAccepted> | EventPayload<typeof OrderCancelled>;

export function orderStock(deps: OrderStockDeps) {
  const { Product, bus, readModel, redis } = deps;

  /** Applies one request's change to one product; answers what it did (for the log and tests). */
  async function changeProduct(
    event: OrderEvent,
    kind: StockOpKind,
    productId: string,
    lines: OrderEvent['lines'],
    waitOnShortfall: boolean,
  ) {
    const key = stockOpKey(event.request_id, kind);
    const log = deps.log.child({ productId, requestId: event.request_id, number: event.number, op: kind });
    return withProductLock(
      redis,
      productId,
      async () => {
        const current = await Product.findOne({ product_id: productId }).lean();
        if (!current || current.deleting) {
          log.info('stock change from an order skipped: the product was deleted');
          return 'deleted' as const;
        }
        if (current.farmer_id !== event.farmer_id) {
          log.error(
            { farmerId: event.farmer_id, owner: current.farmer_id },
            'stock change from an order skipped: the product is another farmer’s',
          );
          return 'not-theirs' as const;
        }
        const outcome = applyStockChange(
          {
            unit: current.unit,
            quantity: current.quantity,
            status: current.status,
            stock_ops: current.stock_ops,
            stock_taken: current.stock_taken as Taken[] | undefined,
            sold_out_by_order: current.sold_out_by_order,
          },
          event.request_id,
          kind,
          lines,
          { waitOnShortfall },
        );
        if (outcome.kind === 'applied') return 'already' as const;
        if (outcome.kind === 'wait') throw new StockChangeLater(outcome.reason);
        for (const note of outcome.notes)
          log.warn({ quantity: current.quantity, unit: current.unit }, `stock change from an order: ${note}`);

        const revision = (current.revision ?? 1) + 1;
        const changedAt = clockNow();
        const payload: EventPayload<typeof ProductChanged> = {
          product_id: productId,
          farmer_id: current.farmer_id,
          revision,
          changed: outcome.changed,
          price_kobo: current.price_kobo,
          unit: current.unit,
          quantity: outcome.quantity,
          status: outcome.status,
          image_ids: current.image_ids ?? [],
          removed_image_ids: [],
          changed_at: changedAt.toISOString(),
          product_name: current.product_name,
          stock_ops: outcome.stock_ops,
          tuber_type: current.tuber_type,
          unit_weight_kg: current.unit_weight_kg ?? 1,
        };
        const set: Record<string, unknown> = {
          quantity: outcome.quantity,
          status: outcome.status,
          stock_ops: outcome.stock_ops,
          stock_taken: outcome.stock_taken,
          revision,
          updated_at: changedAt,
        };
        const unset: Record<string, ''> = {};
        if (outcome.sold_out_by_order === true) set.sold_out_by_order = true;
        if (outcome.sold_out_by_order === false) unset.sold_out_by_order = '';
        const written = await Product.updateOne(
          {
            product_id: productId,
            deleting: { $ne: true },
            stock_ops: { $ne: key },
            revision: current.revision === undefined || current.revision === null ? { $exists: false } : current.revision,
          },
          {
            $set: set,
            ...(Object.keys(unset).length ? { $unset: unset } : {}),
            $push: { outbox: pendingEvent(ProductChanged, payload, `product-changed:${productId}:${revision}`) },
          },
        );
        if (written.modifiedCount === 0) {
          // Under the lock nothing else writes the product's stock: only a delete marked meanwhile.
          const now = await Product.findOne({ product_id: productId }, { deleting: 1, stock_ops: 1 }).lean();
          if (!now || now.deleting) {
            log.info('stock change from an order skipped: the product was deleted');
            return 'deleted' as const;
          }
          if (now.stock_ops?.includes(key)) return 'already' as const;
          throw new StockChangeLater(`the stock change ${key} of product ${productId} was not written; it is tried again`);
        }
        log.info(
          { from: current.quantity, to: outcome.quantity, status: outcome.status, revision },
          kind === 'take' ? 'stock taken by an accepted order request' : 'stock given back by a cancelled order request',
        );
        await publishRecorded(Product, { product_id: productId }, bus, log);
        const saved = await Product.findOne({ product_id: productId }).lean();
        if (saved) await readModel.put(saved);
        return 'changed' as const;
      },
      { waitMs: 5_000, busy: () => new StockChangeLater(`product ${productId} is being changed; the stock change ${key} is tried again`) },
    );
  }

  /** `delivery`: which delivery of the event this is (a take short of stock waits before the last ones). */
  async function handle(event: OrderEvent, kind: StockOpKind, delivery = SHORTFALL_DELIVERIES) {
    const waitOnShortfall = delivery < SHORTFALL_DELIVERIES;
    // Each product on its own: a redelivery after a failure part-way finds the first ones applied.
    for (const [productId, lines] of linesByProduct(event.lines)) await changeProduct(event, kind, productId, lines, waitOnShortfall);
  }

  const consumers: [string, () => Promise<void>][] = [
    ['catalog-order-accepted', () => bus.consume(OrderAccepted, { durable: 'catalog-order-accepted' }, (event, context) => handle(event, 'take', context.deliveryCount))],
    [
      'catalog-order-cancelled',
      // A give waits (redelivered with back-off) while its take is not applied: give it room.
      () =>
        bus.consume(OrderCancelled, { durable: 'catalog-order-cancelled', maxDeliver: 12 }, async (event) => {
          if (!event.was_accepted) return; // nothing was taken
          await handle(event, 'give');
        }),
    ],
  ];

  return {
    handle,
    /**
     * Starts both consumers. One the bus refuses (e.g. the NATS user not yet allowed to consume
     * order events) is retried every `retryMs` in the background: the catalog serves meanwhile, and
     * the events wait in the stream (durable consumers start from the first one).
     */
    async start(retryMs = 15_000): Promise<() => void> {
      const timers = new Set<NodeJS.Timeout>();
      let stopped = false;
      const attempt = async (durable: string, start: () => Promise<void>) => {
        try {
          await start();
          deps.log.info({ durable }, 'order stock consumer started');
        } catch (err) {
          deps.log.error({ err, durable, retryInMs: retryMs }, 'order stock consumer could not start; trying again');
          if (stopped) return;
          const timer = setTimeout(() => {
            timers.delete(timer);
            void attempt(durable, start);
          }, retryMs);
          timer.unref();
          timers.add(timer);
        }
      };
      for (const [durable, start] of consumers) await attempt(durable, start);
      return () => {
        stopped = true;
        for (const timer of timers) clearTimeout(timer);
      };
    },
  };
}
