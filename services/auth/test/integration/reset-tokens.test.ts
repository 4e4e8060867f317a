import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { closeRedis, connectRedis, type RedisClient } from '@tuber/kit';
import { redisUrl } from '../../../../test/support/credentials.js';
import { ResetTokens } from '../../src/domain/reset-tokens.js';

let redis: RedisClient;
beforeAll(async () => {
  redis = await connectRedis(redisUrl());
});
afterAll(async () => {
  if (redis) await closeRedis(redis);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newUser = () => `user-${randomUUID()}`;
const succeed = async () => undefined;

describe('password reset tokens', () => {
  it('carry at least 128 bits, are stored only as a hash, and live 30 minutes', async () => {
    const tokens = new ResetTokens(redis);
    const user = newUser();
    const token = await tokens.issue(user);
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const keys = await redis.keys('auth:reset:*');
    expect(keys.some((k) => k.includes(token))).toBe(false);
    const ttl = await redis.ttl(`auth:reset:user:${user}`);
    expect(ttl).toBeGreaterThan(29 * 60);
    expect(ttl).toBeLessThanOrEqual(30 * 60);
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'used', userId: user });
  });

  it('work once only', async () => {
    const tokens = new ResetTokens(redis);
    const user = newUser();
    const token = await tokens.issue(user);
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'used', userId: user });
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'invalid' });
    expect(await tokens.isValid(token)).toBe(false);
  });

  it('expire', async () => {
    const tokens = new ResetTokens(redis, 1);
    const token = await tokens.issue(newUser());
    expect(await tokens.isValid(token)).toBe(true);
    await sleep(1_500);
    expect(await tokens.isValid(token)).toBe(false);
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'invalid' });
  });

  it('reject a tampered token', async () => {
    const tokens = new ResetTokens(redis);
    const user = newUser();
    const token = await tokens.issue(user);
    const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(await tokens.redeem(tampered, succeed)).toEqual({ outcome: 'invalid' });
    expect(await tokens.redeem(`${token}x`, succeed)).toEqual({ outcome: 'invalid' });
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'used', userId: user });
  });

  it('stay usable when setting the password fails, and pass the error on', async () => {
    const tokens = new ResetTokens(redis);
    const user = newUser();
    const token = await tokens.issue(user);
    const refused = new Error('password policy');
    await expect(
      tokens.redeem(token, async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await tokens.isValid(token)).toBe(true);
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'used', userId: user });
  });

  it('let exactly one of two concurrent uses succeed', async () => {
    const tokens = new ResetTokens(redis);
    const token = await tokens.issue(newUser());
    let passwordsSet = 0;
    const use = async () => {
      passwordsSet++;
      await sleep(100);
    };
    const outcomes = await Promise.all([tokens.redeem(token, use), tokens.redeem(token, use)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['busy', 'used']);
    expect(passwordsSet).toBe(1);
    expect(await tokens.isValid(token)).toBe(false);
  });

  it("spend all of the user's links on success, and no one else's", async () => {
    const tokens = new ResetTokens(redis);
    const user = newUser();
    const first = await tokens.issue(user);
    const second = await tokens.issue(user);
    const someoneElses = await tokens.issue(newUser());
    // Asking again does not cancel the earlier link.
    expect(await tokens.isValid(first)).toBe(true);
    expect(await tokens.redeem(second, succeed)).toEqual({ outcome: 'used', userId: user });
    expect(await tokens.isValid(first)).toBe(false);
    expect(await tokens.redeem(first, succeed)).toEqual({ outcome: 'invalid' });
    expect(await tokens.isValid(someoneElses)).toBe(true);
  });

  it('come back once the lease of an abandoned reset runs out', async () => {
    const tokens = new ResetTokens(redis, 60, 300);
    const user = newUser();
    const token = await tokens.issue(user);
    // A reset that never finishes (the process died half-way) holds the account's lease.
    void tokens.redeem(token, () => new Promise<void>(() => undefined));
    await sleep(50);
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'busy' });
    await sleep(400);
    expect(await tokens.redeem(token, succeed)).toEqual({ outcome: 'used', userId: user });
  });
});
