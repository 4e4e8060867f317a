// Password-reset tokens: 256 random bits sent by e-mail, only their SHA-256 kept in Redis,
// expiring after 30 minutes and usable once (taken with GETDEL).
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export const RESET_TOKEN_TTL_SECONDS = 30 * 60;

const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const key = (token: string) => `auth:reset:${hash(token)}`;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class ResetTokens {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds = RESET_TOKEN_TTL_SECONDS,
  ) {}

  async issue(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(key(token), userId, 'EX', this.ttlSeconds);
    return token;
  }

  /** Whether the token would be accepted now (does not use it up). */
  async isValid(token: string): Promise<boolean> {
    if (!TOKEN_PATTERN.test(token)) return false;
    return (await this.redis.exists(key(token))) === 1;
  }

  /** Uses the token up; returns the user it was issued for, or undefined if unknown, used or expired. */
  async consume(token: string): Promise<string | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    return (await this.redis.getdel(key(token))) ?? undefined;
  }
}
