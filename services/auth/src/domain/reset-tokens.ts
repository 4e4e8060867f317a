// Password-reset tokens: 256 random bits sent by e-mail, only their SHA-256 kept in Redis,
// expiring after 30 minutes. A token is spent only once the new password is really set, and a
// successful reset spends every outstanding token of that user, so no older link still works.
//
// Redis layout (all plain keys with their own expiry, so nothing outlives the last token):
//   auth:reset:<sha256>        → user id, EX ttl                      (the token)
//   auth:reset:user:<user id>  → set of the user's token hashes, EX ttl of the newest token
//   auth:reset:lock:<user id>  → claim id, PX lease                   (a reset under way)
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RedisClient } from '@tuber/kit';

export const RESET_TOKEN_TTL_SECONDS = 30 * 60;
/**
 * How long a claimed reset may take before another attempt may claim again. Longer than the
 * Keycloak calls of a reset can take (5 s timeout each); if the process dies mid-reset the lease
 * simply runs out and the link works again.
 */
export const RESET_LEASE_MS = 60_000;

const TOKEN_PREFIX = 'auth:reset:';
const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const tokenKey = (tokenHash: string) => `${TOKEN_PREFIX}${tokenHash}`;
const userKey = (userId: string) => `auth:reset:user:${userId}`;
const lockKey = (userId: string) => `auth:reset:lock:${userId}`;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

// The scripts build some key names from arguments: this service uses one standalone Redis, where
// that is allowed (it would not be on a Redis Cluster).

/** Takes the user's lease if the token exists and no other reset of that user is under way. */
const CLAIM = `
local user = redis.call('GET', KEYS[1])
if not user then return {'invalid'} end
if redis.call('SET', ARGV[2] .. user, ARGV[1], 'NX', 'PX', ARGV[3]) then return {'claimed', user} end
return {'busy'}`;

/** After a successful reset: every token of the user goes, then the lease (if still ours). */
const SPEND = `
for _, tokenHash in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', ARGV[2] .. tokenHash) end
redis.call('DEL', KEYS[1], KEYS[3])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

/** After a failed reset: the tokens stay, the lease goes (only if it is still ours). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export type Redemption =
  /** The token was valid, `use` succeeded, and all of the user's tokens are now spent. */
  | { outcome: 'used'; userId: string }
  /** Unknown, malformed, expired or already used. */
  | { outcome: 'invalid' }
  /** Another reset of the same account is under way right now; the token is untouched. */
  | { outcome: 'busy' };

export class ResetTokens {
  constructor(
    private readonly redis: RedisClient,
    private readonly ttlSeconds = RESET_TOKEN_TTL_SECONDS,
    private readonly leaseMs = RESET_LEASE_MS,
  ) {}

  /**
   * A new token for the user. Earlier tokens stay valid until they expire or a reset succeeds:
   * a second request (or someone else's, for this address) does not break the link already in the inbox.
   */
  async issue(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hash(token);
    // MULTI/EXEC: all three or none; exec() rejects if any of them failed.
    await this.redis
      .multi()
      .set(tokenKey(tokenHash), userId, { expiration: { type: 'EX', value: this.ttlSeconds } })
      .sAdd(userKey(userId), tokenHash)
      .expire(userKey(userId), this.ttlSeconds)
      .exec();
    return token;
  }

  /** Whether the token would be accepted now (does not use it up). */
  async isValid(token: string): Promise<boolean> {
    if (!TOKEN_PATTERN.test(token)) return false;
    return (await this.redis.exists(tokenKey(hash(token)))) === 1;
  }

  /**
   * Runs `use` (setting the password) for the token's user, holding a short per-user lease so
   * concurrent attempts cannot both succeed. The tokens are spent only if `use` succeeds; if it
   * throws (password refused, Keycloak away) the lease is released, the link keeps working,
   * and the error is passed on.
   */
  async redeem(token: string, use: (userId: string) => Promise<void>): Promise<Redemption> {
    if (!TOKEN_PATTERN.test(token)) return { outcome: 'invalid' };
    const key = tokenKey(hash(token));
    const claimId = randomUUID();
    const [outcome, userId] = (await this.redis.eval(CLAIM, { keys: [key], arguments: [claimId, lockKey(''), String(this.leaseMs)] })) as [
      string,
      string?,
    ];
    if (outcome === 'busy') return { outcome: 'busy' };
    if (outcome !== 'claimed' || !userId) return { outcome: 'invalid' };
    try {
      await use(userId);
    } catch (err) {
      // If this fails too, the lease runs out by itself; the original error is the one that matters.
      await this.redis.eval(RELEASE, { keys: [lockKey(userId)], arguments: [claimId] }).catch(() => undefined);
      throw err;
    }
    await this.redis.eval(SPEND, { keys: [userKey(userId), lockKey(userId), key], arguments: [claimId, TOKEN_PREFIX] });
    return { outcome: 'used', userId };
  }
}
