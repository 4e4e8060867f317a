// The per-profile write lock (ADR 0035): a farmer's profile document has several writers — the
// profile change (PATCH), the e-mail that follows the account, and the outbox relay taking a
// published FarmerProfileChanged out. FerretDB 1.x applies an update as a read of the whole
// document and a write of it back, so two writers at once can lose one write (a relay on one
// replica taking an event out could put back the revision a change on the other had just set).
// Every one of them runs under `profile:lock:user:<id>` in Redis (kit's locks).
import { conflict, redisDocumentLock, type DocumentLock, type RedisClient } from '@tuber/kit';

export const profileLockKey = (userId: string) => `profile:lock:user:${userId}`;

/** The profile lock, keyed by `{ user_id }`; a request or consumer that waits longer than `waitMs` fails and is tried again. */
export const profileDocumentLock = (redis: RedisClient, waitMs = 10_000): DocumentLock =>
  redisDocumentLock(redis, 'user_id', profileLockKey, waitMs);

/** The answer when the profile's lock is held elsewhere (another tab, another device). */
export const profileBusy = () =>
  conflict('PROFILE_BUSY', 'Your profile is being saved from another tab or device; wait a moment and try again.');
