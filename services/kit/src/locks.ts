// Short write locks in Redis, for FerretDB 1.x: it applies every update (a conditional one too) as a
// read of the whole document and a write of it back, so two writers of one document at the same
// moment can both "succeed" and one write is lost (measured: ADR 0030, 0031). A service takes one of
// these around every read-check-write of a document that has several writers (a route, a consumer,
// the outbox relay). Each lock is SET NX PX with a random token and is released only by that token;
// several keys are taken in sorted order, so two holders never wait on each other in a circle.
// Re-entrant within one async call chain: work that already holds a key takes it again at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RedisClient } from './stores.js';

/**
 * How long a lock lives if its holder dies without releasing it. A live holder renews its keys every
 * third of this (see `keepAlive`), so work may take longer; a killed one blocks others at most this long.
 */
export const LOCK_TTL_MS = 5_000;

const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

/**
 * Renews the holder's keys every third of `ttlMs` while it works, so a lock outlives its TTL only as
 * long as its holder is alive (a replica killed mid-write frees its documents within `ttlMs`, instead
 * of making every later writer of them wait for a long TTL). Answers the function that stops renewing.
 */
function keepAlive(redis: RedisClient, keys: readonly string[], token: string, ttlMs: number): () => void {
  const timer = setInterval(
    () => {
      for (const key of keys) redis.eval(RENEW, { keys: [key], arguments: [token, String(ttlMs)] }).catch(() => undefined);
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** The keys the current async call chain holds. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

export interface LockOptions {
  /** Longest wait for every key, then `busy()` is thrown (default 8 s: longer than a dead holder's LOCK_TTL_MS). */
  waitMs?: number;
  /** How long a key lives without its holder (default LOCK_TTL_MS). */
  ttlMs?: number;
  /** What to throw when the keys stay taken: a route answers 409 or 503, a consumer lets the event come back. */
  busy: () => Error;
}

/** Runs `work` holding every key of `keys`; waits at most `waitMs`, then releases what it took and throws `busy()`. */
export async function withLocks<T>(redis: RedisClient, keys: readonly string[], work: () => Promise<T>, options: LockOptions): Promise<T> {
  const mine = held.getStore();
  const wanted = [...new Set(keys)].filter((key) => !mine?.has(key)).sort();
  if (wanted.length === 0) return work();
  const token = randomUUID();
  const taken: string[] = [];
  const release = async () => {
    await Promise.all(taken.map((key) => redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined)));
  };
  const ttlMs = options.ttlMs ?? LOCK_TTL_MS;
  const deadline = Date.now() + (options.waitMs ?? 8_000);
  // Renews what is taken so far, also while the next keys are awaited.
  const stopRenewing = keepAlive(redis, taken, token, ttlMs);
  try {
    for (const key of wanted) {
      while ((await redis.set(key, token, { NX: true, PX: ttlMs })) === null) {
        if (Date.now() > deadline) throw options.busy();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      taken.push(key);
    }
  } catch (err) {
    stopRenewing();
    await release();
    throw err;
  }
  try {
    return await held.run(new Set([...(mine ?? []), ...wanted]), work);
  } finally {
    stopRenewing();
    await release();
  }
}

/** Takes `key` if it is free right now (renewed while held); answers its release, or null when another holder has it. */
export async function tryLock(redis: RedisClient, key: string, ttlMs = LOCK_TTL_MS): Promise<(() => Promise<void>) | null> {
  const token = randomUUID();
  if ((await redis.set(key, token, { NX: true, PX: ttlMs })) === null) return null;
  const stopRenewing = keepAlive(redis, [key], token, ttlMs);
  return async () => {
    stopRenewing();
    await redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
  };
}

/**
 * A DocumentLock (outbox.ts) over `withLocks`: the document named by `filter[field]` is locked
 * under `keyOf(value)`. A background write that waits longer than `waitMs` fails and is tried again.
 */
export function redisDocumentLock(
  redis: RedisClient,
  field: string,
  keyOf: (value: string) => string,
  waitMs = 10_000,
): <T>(filter: Record<string, unknown>, work: () => Promise<T>) => Promise<T> {
  return (filter, work) => {
    const value = filter[field];
    if (typeof value !== 'string') throw new Error(`a document lock needs the filter { ${field} }`);
    return withLocks(redis, [keyOf(value)], work, {
      waitMs,
      busy: () => new Error(`${field} ${value} is being written by another holder of its lock; tried again later`),
    });
  };
}
