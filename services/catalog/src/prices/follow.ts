// The price guide kept current (docs/adr/0072): one durable consumer per event it follows, each applying its event
// to the read model; the tubers an event touched are recomputed together a moment later (a burst of events costs
// one computation), and every tuber once every 10 minutes, so a new week begins without waiting for an event.
import { everyUnderLease, now as clockNow, type EventBus, type RedisClient } from '@tuber/kit';
import { TUBER_TYPES } from '@tuber/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ProductModel } from '../domain/product.js';
import { PRICE_EVENTS, applyPriceEvent } from './apply.js';
import type { LegacyProduct, PriceStore } from './model.js';

/** How long touched tubers wait to be recomputed together. */
export const RECOMPUTE_AFTER_MS = 300;
export const REFRESH_EVERY_MS = 10 * 60_000;

/** A product's facts from the catalog's own record, for one posted before its events carried them. */
export const legacyFrom =
  (Product: ProductModel): LegacyProduct =>
  async (productId) => {
    const doc = await Product.findOne({ product_id: productId }, { farmer_id: 1, tuber_type: 1, unit: 1, unit_weight_kg: 1 }).lean();
    return doc ? { farmer_id: doc.farmer_id, tuber: doc.tuber_type, unit: doc.unit ?? 'kg', unit_weight_kg: doc.unit_weight_kg ?? 1 } : null;
  };

export interface PriceFollower {
  /** Resolves once every touched tuber so far is recomputed (tests and the bench wait on it). */
  settled(): Promise<void>;
  /** Called with each recomputed tuber (the routes drop their cached copies). */
  onRecomputed(listener: (tuber: string) => void): void;
}

export async function followPrices(
  bus: EventBus,
  deps: { store: PriceStore; Product: ProductModel; redis: RedisClient; log: FastifyBaseLogger; onClose: (stop: () => Promise<void>) => void },
): Promise<PriceFollower> {
  const { store, log } = deps;
  await store.init();
  const legacy = legacyFrom(deps.Product);
  const dirty = new Set<string>();
  const listeners: ((tuber: string) => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const recompute = async (tubers: string[]) => {
    for (const tuber of tubers) {
      await store.recompute(tuber, clockNow().getTime());
      for (const listener of listeners) listener(tuber);
    }
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const tubers = [...dirty];
      dirty.clear();
      running = running
        .then(() => recompute(tubers))
        .catch((err: unknown) => {
          // Put back: the next event or the periodic refresh tries again.
          for (const tuber of tubers) dirty.add(tuber);
          log.warn({ err, tubers }, 'price figures could not be recomputed; trying again at the next event or refresh');
        });
    }, RECOMPUTE_AFTER_MS);
  };

  for (const { event, durable } of PRICE_EVENTS) {
    await bus.consume(event, { durable }, async (payload) => {
      const touched = await applyPriceEvent(store, event.subject, payload, legacy);
      if (touched.length === 0) return;
      for (const tuber of touched) dirty.add(tuber);
      schedule();
    });
  }

  everyUnderLease(
    deps.redis,
    { key: 'catalog:lease:prices-refresh', ttlMs: 5 * 60_000, everyMs: REFRESH_EVERY_MS },
    () => recompute([...TUBER_TYPES]),
    { log, what: 'the periodic price refresh', onClose: deps.onClose },
  );
  deps.onClose(async () => {
    if (timer) clearTimeout(timer);
    await running;
  });

  return {
    async settled() {
      while (timer || dirty.size) await new Promise((resolve) => setTimeout(resolve, 50));
      await running;
    },
    onRecomputed(listener) {
      listeners.push(listener);
    },
  };
}
