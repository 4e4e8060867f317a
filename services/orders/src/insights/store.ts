// Writes and reads of the insight day documents. Each write is one update of one document.
//
// FerretDB 1.24 does not apply an update atomically: it reads the matching document, changes it in
// its own memory and writes it back, so updates of the same document at the same moment overwrite
// each other (measured on the local stack: 30 concurrent `$inc: {view: 1}` on one document added 2;
// 30 concurrent upserts of a missing one left 5). Writes to one (product, day) document therefore
// run one at a time under a short Redis lock, as the catalog's product writes do (ADR 0030). On a
// real MongoDB the same updates are atomic by themselves and the lock only costs a round trip.
import { INSIGHT_COUNTS, type ActivityKind } from '@tuber/contracts';
import { unavailable, withLocks, type RedisClient } from '@tuber/kit';
import type { InsightDayModel } from './model.js';
import type { DayRecord } from './summary.js';

/** Redis keys of this module (the orders service's keys start with "orders:"). */
export const INSIGHT_KEYS = {
  lock: (productId: string, day: string) => `orders:insights:lock:${productId}:${day}`,
  /** One account's report of one kind on one product on one Lagos day: counted once (issue 24). */
  seen: (day: string, userId: string, productId: string, kind: ActivityKind) => `orders:insights:seen:${day}:${userId}:${productId}:${kind}`,
};

export const LOCK_BUSY_MESSAGE = 'Insights are busy being updated right now. Please try again in a few seconds.';

const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

export type RequestCount = 'requests_received' | 'requests_accepted';
const ID_FIELD: Record<RequestCount, 'received_ids' | 'accepted_ids'> = {
  requests_received: 'received_ids',
  requests_accepted: 'accepted_ids',
};

export interface InsightStoreOptions {
  /** Longest wait for another write of the same document (default 3 s). */
  lockWaitMs?: number;
}

export class InsightStore {
  readonly #lockWaitMs: number;

  constructor(
    private readonly Day: InsightDayModel,
    private readonly redis: RedisClient,
    options: InsightStoreOptions = {},
  ) {
    this.#lockWaitMs = options.lockWaitMs ?? 3_000;
  }

  /** Runs `work` while no other write of the (product, day) document runs; 503 if it stays busy. */
  async #serial<T>(productId: string, day: string, work: () => Promise<T>): Promise<T> {
    return withLocks(this.redis, [INSIGHT_KEYS.lock(productId, day)], work, {
      waitMs: this.#lockWaitMs,
      ttlMs: 10_000,
      busy: () => unavailable('INSIGHTS_BUSY', LOCK_BUSY_MESSAGE, 5),
    });
  }

  /** Adds one to what buyers did with a product on a day (the document is made on the first count). */
  async countActivity(farmerId: string, productId: string, day: string, kind: ActivityKind): Promise<void> {
    await this.#serial(productId, day, async () => {
      const filter = { product_id: productId, day };
      try {
        await this.Day.updateOne(filter, { $inc: { [kind]: 1 }, $setOnInsert: { farmer_id: farmerId } }, { upsert: true });
      } catch (err) {
        // Made by a writer that did not hold the lock (it expired): the document is there now.
        if (!isDuplicateKey(err)) throw err;
        await this.Day.updateOne(filter, { $inc: { [kind]: 1 } });
      }
    });
  }

  /**
   * Counts an order request for a product on a day, once: the update applies only while the
   * request's id is not yet in the document, and adds it. Answers whether this call counted it.
   */
  async countRequest(farmerId: string, productId: string, day: string, count: RequestCount, requestId: string): Promise<boolean> {
    const ids = ID_FIELD[count];
    return this.#serial(productId, day, async () => {
      const filter = { product_id: productId, day, [ids]: { $ne: requestId } };
      const update = { $inc: { [count]: 1 }, $push: { [ids]: requestId } };
      try {
        const result = await this.Day.updateOne(filter, { ...update, $setOnInsert: { farmer_id: farmerId } }, { upsert: true });
        return result.modifiedCount + result.upsertedCount > 0;
      } catch (err) {
        // The document exists and already holds the id (the filter missed, so the upsert tried to
        // make a second one), or another writer made it meanwhile: try once more without making it.
        if (!isDuplicateKey(err)) throw err;
        const result = await this.Day.updateOne(filter, update);
        return result.modifiedCount > 0;
      }
    });
  }

  /** A farmer's day documents from `firstDay` to `lastDay` (inclusive), as summary records. */
  async records(farmerId: string, firstDay: string, lastDay: string): Promise<DayRecord[]> {
    const fields = Object.fromEntries(['product_id', 'day', ...INSIGHT_COUNTS].map((k) => [k, 1]));
    const documents = await this.Day.find({ farmer_id: farmerId, day: { $gte: firstDay, $lte: lastDay } }, { _id: 0, ...fields }).lean();
    return documents.map((d) => ({
      product_id: d.product_id,
      day: d.day,
      counts: Object.fromEntries(INSIGHT_COUNTS.map((k) => [k, d[k]])),
    }));
  }
}
