// Bounds the work and memory of image decoding: a few uploads are read and decoded at a time, a
// few more wait their turn (their bodies still unread), and any beyond that are refused at once
// with 503 so that a burst of large photos cannot exhaust the process.
import pLimit from 'p-limit';
import { unavailable } from '@tuber/kit';

export const BUSY_MESSAGE = 'The photo service is busy with other uploads. Please try again in a few seconds.';

export interface DecodeGate {
  /** Runs `work` when a slot is free; throws 503 at once if the queue is full. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function decodeGate(concurrency: number, queue: number): DecodeGate {
  const limit = pLimit(concurrency);
  return {
    run(work) {
      if (limit.activeCount + limit.pendingCount >= concurrency + queue) return Promise.reject(unavailable('PHOTO_SERVICE_BUSY', BUSY_MESSAGE, 5));
      return limit(work);
    },
    get active() {
      return limit.activeCount;
    },
    get waiting() {
      return limit.pendingCount;
    },
  };
}
