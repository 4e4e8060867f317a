// Leases for scheduled work when a service runs as several replicas (docs/adr/0039): a timer or a
// start-up job that would do its work twice if two replicas ran it at once runs under a lease, a
// Redis key (kit's tryLock: SET NX PX with a random token, released only by that token) that one
// replica holds while the job runs. The other replicas skip that round (a timer job: the next round
// comes soon) or wait until the holder is done (a start-up job whose result they need).
// The lease ends when the job ends, or after `ttlMs` if its holder dies mid-run: choose a TTL longer
// than the job ever takes. A job that outlives its TTL may overlap with another replica's run, so a
// leased job stays safe to repeat; the lease keeps two runs from overlapping, not from happening.
import { tryLock } from './locks.js';
import type { RedisClient } from './stores.js';

export interface LeaseOptions {
  /** How long the lease lives without its holder (a crash mid-run). Longer than the job takes. */
  ttlMs: number;
  /** How long to wait for another replica's run to end (default 0: skip this round at once). */
  waitMs?: number;
  /** How often a waiting replica asks again (default 200 ms). */
  pollMs?: number;
}

export type LeaseOutcome<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while holding the lease `key` (a key in the service's own Redis namespace, e.g.
 * `media:lease:sweep`). When another replica holds it, waits up to `waitMs` for it, then answers
 * `{ ran: false }` without running `work`. Errors from `work` are thrown after the lease is released.
 */
export async function withLease<T>(
  redis: RedisClient,
  key: string,
  work: () => Promise<T>,
  options: LeaseOptions,
): Promise<LeaseOutcome<T>> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  let release = await tryLock(redis, key, options.ttlMs);
  while (!release && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
    release = await tryLock(redis, key, options.ttlMs);
  }
  if (!release) return { ran: false };
  try {
    return { ran: true, value: await work() };
  } finally {
    await release();
  }
}

/**
 * A timer job under a lease: every `everyMs`, each replica tries the lease `key` and the one holding it runs
 * `work`; a failure is logged with `what` and the next round tries again. `onClose` is given the stop, which
 * clears the timer and waits for a round in progress (register it with the app's onClose hook).
 */
export function everyUnderLease(
  redis: RedisClient,
  lease: { key: string; ttlMs: number; everyMs: number },
  work: () => Promise<unknown>,
  deps: { log: { warn: (details: object, message: string) => void }; what: string; onClose: (stop: () => Promise<void>) => void },
): void {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = withLease(redis, lease.key, work, { ttlMs: lease.ttlMs }).catch((err: unknown) =>
      deps.log.warn({ err }, `${deps.what} failed; trying again at the next round`),
    );
  }, lease.everyMs);
  timer.unref();
  deps.onClose(async () => {
    clearInterval(timer);
    await running;
  });
}
