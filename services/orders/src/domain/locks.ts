// Short Redis locks (ADR 0031). FerretDB 1.x applies a conditional update as a read then a write,
// so two writers can both "succeed"; these make the read-check-write of one request, and the stock
// check of an accept for each of its products, run one at a time.
//   orders:lock:request:<request_id>   every write of one request document
//   orders:lock:product:<product_id>   accepting (what is left to promise of that product)
// Several product locks are taken in sorted order (no two accepts wait on each other in a circle),
// each with SET NX PX and a random token, and released only by that token.
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@tuber/kit';

export const LOCK_TTL_MS = 15_000;
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

export const requestLockKey = (requestId: string) => `orders:lock:request:${requestId}`;
export const productLockKey = (productId: string) => `orders:lock:product:${productId}`;

/**
 * Runs `work` holding every key (sorted, duplicates once). Waits at most `waitMs` for all of them,
 * then releases what it took and throws `busy()`.
 */
export async function withLocks<T>(
  redis: RedisClient,
  keys: readonly string[],
  work: () => Promise<T>,
  options: { waitMs?: number; busy: () => Error },
): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const token = randomUUID();
  const held: string[] = [];
  const release = async () => {
    await Promise.all(held.map((key) => redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined)));
  };
  const deadline = Date.now() + (options.waitMs ?? 5_000);
  try {
    for (const key of sorted) {
      while ((await redis.set(key, token, { NX: true, PX: LOCK_TTL_MS })) === null) {
        if (Date.now() > deadline) throw options.busy();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      held.push(key);
    }
  } catch (err) {
    await release();
    throw err;
  }
  try {
    return await work();
  } finally {
    await release();
  }
}
