// Logout ends access (issue 24): a sign-in's access tokens carry its Keycloak session id (`sid`). When the
// sign-in ends (the app's logout, or Keycloak's LOGOUT event that the auth service relays), the auth
// service records the sid here, and every service's `authenticate` refuses its tokens from then on, not
// when they expire (up to 5 minutes later) (docs/adr/0056).
//   auth:revoked-sid:<sid>   "1", kept for REVOKED_SESSION_TTL_SECONDS: longer than any access token lives
// The check is an EXISTS per authenticated request. Its answers are kept in the service's memory by
// Redis's own client-side caching (server-assisted tracking, RESP3): Redis tells every service that
// read a sid the moment that sid's key is written, and the service forgets its answer before the
// writer (the auth service) hears OK. So the refusal still holds on every replica from the next request
// on, and a request for a sid already asked about costs a lookup in memory, not a round trip (bench P5).
// Until the tracking connection is ready, or whenever it is away, the check asks Redis directly.
import type { RedisClient } from './stores.js';

export const REVOKED_SESSION_PREFIX = 'auth:revoked-sid:';
/** The realm's access tokens live 300 s; kept three times that, for clock skew and a late relay. */
export const REVOKED_SESSION_TTL_SECONDS = 900;

/** Answers kept in memory at most this long, should an invalidation ever be missed without a disconnect. */
export const REVOKED_CACHE_TTL_MS = 30_000;
/** Distinct sign-ins whose answers are kept (least recently used out first). */
export const REVOKED_CACHE_ENTRIES = 20_000;

export interface RevokedSessionsOptions {
  /** Keep answers in memory with Redis's invalidation (default true; false: one round trip a request). */
  cache?: boolean;
}

export class RevokedSessions {
  readonly #tracked: RedisClient | undefined;

  constructor(
    private readonly redis: RedisClient,
    options: RevokedSessionsOptions = {},
  ) {
    if (options.cache !== false) {
      // A second connection of the same user, in RESP3 with tracking on: the service's main client
      // keeps its protocol (RESP2 replies), so nothing else in the service changes shape.
      this.#tracked = redis.duplicate({
        RESP: 3,
        clientSideCache: { ttl: REVOKED_CACHE_TTL_MS, maxEntries: REVOKED_CACHE_ENTRIES, evictPolicy: 'LRU' },
      }) as unknown as RedisClient;
      this.#tracked.on('error', () => undefined); // reported by /ready through the direct check
      this.#tracked.connect().catch(() => undefined);
    }
  }

  /** Records that sign-in `sid` has ended; its tokens are refused from the next request on. */
  async revoke(sid: string): Promise<void> {
    await this.redis.set(`${REVOKED_SESSION_PREFIX}${sid}`, '1', { EX: REVOKED_SESSION_TTL_SECONDS });
  }

  /** Whether sign-in `sid` has ended: from memory when Redis's tracking vouches for it, else from Redis. */
  async isRevoked(sid: string): Promise<boolean> {
    const client = this.#tracked?.isReady ? this.#tracked : this.redis;
    return (await client.exists(`${REVOKED_SESSION_PREFIX}${sid}`)) === 1;
  }

  /** Asks Redis itself, never memory (readiness: the service's user may read the records). */
  async checkDirect(sid: string): Promise<boolean> {
    return (await this.redis.exists(`${REVOKED_SESSION_PREFIX}${sid}`)) === 1;
  }

  /** How many answers are kept in memory now (0 without the cache). */
  get cachedAnswers(): number {
    return (this.#tracked as unknown as { clientSideCache?: { size(): number } } | undefined)?.clientSideCache?.size() ?? 0;
  }

  /** Whether answers come from memory now (the tracking connection is up). */
  get caching(): boolean {
    return this.#tracked?.isReady === true;
  }

  async close(): Promise<void> {
    if (this.#tracked?.isOpen) this.#tracked.destroy();
  }
}
