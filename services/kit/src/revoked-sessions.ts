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
//   On top of node-redis's cache, the answers sit in a plain Map that the same invalidations empty, so a
// request for a sid already asked about costs one Map lookup, not a pass through the client's command path
// (bench P5). A answer read while an invalidation arrived is not kept (an epoch counts invalidations).
import { BasicClientSideCache } from 'redis';
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
  readonly #cache: BasicClientSideCache | undefined;
  /** sid → [ended, when asked]: the answers in memory, emptied by the invalidations node-redis receives. */
  readonly #answers = new Map<string, [boolean, number]>();
  /** Counts invalidations and disconnects: an answer asked for before one of them is not kept. */
  #epoch = 0;

  constructor(
    private readonly redis: RedisClient,
    options: RevokedSessionsOptions = {},
  ) {
    if (options.cache !== false) {
      this.#cache = new BasicClientSideCache({ ttl: REVOKED_CACHE_TTL_MS, maxEntries: REVOKED_CACHE_ENTRIES, evictPolicy: 'LRU' });
      this.#cache.on('invalidate', (key: string | Buffer | null) => this.#forget(key === null ? null : key.toString()));
      // A second connection of the same user, in RESP3 with tracking on: the service's main client
      // keeps its protocol (RESP2 replies), so nothing else in the service changes shape.
      this.#tracked = redis.duplicate({ RESP: 3, clientSideCache: this.#cache }) as unknown as RedisClient;
      this.#tracked.on('error', () => this.#forget(null)); // reported by /ready through the direct check
      this.#tracked.on('end', () => this.#forget(null));
      this.#tracked.on('reconnecting', () => this.#forget(null));
      this.#tracked.connect().catch(() => undefined);
    }
  }

  /** Records that sign-in `sid` has ended; its tokens are refused from the next request on. */
  async revoke(sid: string): Promise<void> {
    await this.redis.set(`${REVOKED_SESSION_PREFIX}${sid}`, '1', { EX: REVOKED_SESSION_TTL_SECONDS });
  }

  /** The answer for `sid` if memory holds one that Redis's tracking still vouches for; undefined: ask isRevoked. */
  known(sid: string): boolean | undefined {
    if (this.#tracked?.isReady !== true) return undefined;
    const kept = this.#answers.get(sid);
    return kept && Date.now() - kept[1] < REVOKED_CACHE_TTL_MS ? kept[0] : undefined;
  }

  /** Whether sign-in `sid` has ended: from memory when Redis's tracking vouches for it, else from Redis. */
  async isRevoked(sid: string): Promise<boolean> {
    const kept = this.known(sid);
    if (kept !== undefined) return kept;
    const tracked = this.#tracked?.isReady === true;
    const epoch = this.#epoch;
    const client = tracked ? this.#tracked! : this.redis;
    const ended = (await client.exists(`${REVOKED_SESSION_PREFIX}${sid}`)) === 1;
    if (tracked && epoch === this.#epoch) {
      if (this.#answers.size >= REVOKED_CACHE_ENTRIES) this.#answers.delete(this.#answers.keys().next().value!);
      this.#answers.set(sid, [ended, Date.now()]);
    }
    return ended;
  }

  /** Asks Redis itself, never memory (readiness: the service's user may read the records). */
  async checkDirect(sid: string): Promise<boolean> {
    return (await this.redis.exists(`${REVOKED_SESSION_PREFIX}${sid}`)) === 1;
  }

  /** How many answers are kept in memory now (0 without the cache). */
  get cachedAnswers(): number {
    return this.#answers.size;
  }

  /** Whether answers come from memory now (the tracking connection is up). */
  get caching(): boolean {
    return this.#tracked?.isReady === true;
  }

  async close(): Promise<void> {
    this.#forget(null);
    if (this.#tracked?.isOpen) this.#tracked.destroy();
  }

  /** An invalidation of one key (or of all, null), or a disconnect: the kept answers concerned go. */
  #forget(key: string | null): void {
    this.#epoch += 1;
    if (key === null) this.#answers.clear();
    else if (key.startsWith(REVOKED_SESSION_PREFIX)) this.#answers.delete(key.slice(REVOKED_SESSION_PREFIX.length));
  }
}
