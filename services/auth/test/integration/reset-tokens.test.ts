import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '@tuber/kit';
import type { Redis } from 'ioredis';
import { ResetTokens } from '../../src/domain/reset-tokens.js';

let redis: Redis;
beforeAll(async () => {
  redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(() => redis?.disconnect());

describe('password reset tokens', () => {
  it('carry at least 128 bits and are stored only as a hash', async () => {
    const tokens = new ResetTokens(redis);
    const token = await tokens.issue('user-1');
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const keys = await redis.keys('auth:reset:*');
    expect(keys.some((k) => k.includes(token))).toBe(false);
    expect(await tokens.consume(token)).toBe('user-1');
  });

  it('work once only', async () => {
    const tokens = new ResetTokens(redis);
    const token = await tokens.issue('user-2');
    expect(await tokens.consume(token)).toBe('user-2');
    expect(await tokens.consume(token)).toBeUndefined();
    expect(await tokens.isValid(token)).toBe(false);
  });

  it('expire', async () => {
    const tokens = new ResetTokens(redis, 1);
    const token = await tokens.issue('user-3');
    expect(await tokens.isValid(token)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await tokens.consume(token)).toBeUndefined();
  });

  it('reject a tampered token', async () => {
    const tokens = new ResetTokens(redis);
    const token = await tokens.issue('user-4');
    const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(await tokens.consume(tampered)).toBeUndefined();
    expect(await tokens.consume(`${token}x`)).toBeUndefined();
    expect(await tokens.consume(token)).toBe('user-4');
  });
});
