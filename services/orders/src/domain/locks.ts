// Short Redis locks (ADR 0031, kit's locks). FerretDB 1.x applies a conditional update as a read
// then a write, so two writers can both "succeed"; these make the read-check-write of one request,
// and the stock check of an accept for each of its products, run one at a time.
//   orders:lock:request:<request_id>   every write of one request document (the outbox's included)
//   orders:lock:product:<product_id>   accepting (what is left to promise of that product)
//   orders:lock:contact:<user_id>      every write of one contact (the profile and account events, the
//                                      buyer's address from a send): two at once lost a farmer's name
import { redisDocumentLock, type RedisClient } from '@tuber/kit';

export { withLocks } from '@tuber/kit';

export const requestLockKey = (requestId: string) => `orders:lock:request:${requestId}`;
export const productLockKey = (productId: string) => `orders:lock:product:${productId}`;
export const contactLockKey = (userId: string) => `orders:lock:contact:${userId}`;

/** The request lock for the outbox's own writes of a request document, keyed by `{ request_id }` (ADR 0035). */
export const requestDocumentLock = (redis: RedisClient) => redisDocumentLock(redis, 'request_id', requestLockKey);
