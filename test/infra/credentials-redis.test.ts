// Redis signs every client in; each service's ACL user reaches only its own `<service>:` keys and
// no administrative command (docs/adr/0017, infra/redis/acl.sh).
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelRedisUrl, redisUrl } from '../support/credentials.js';

/** Every client the tests open, closed at the end. */
const clients: Array<{ isOpen: boolean; destroy(): void }> = [];
/** A connected client as `user` that reports errors instead of retrying (on the read model's Redis with `url`). */
async function as(user: string, url = redisUrl): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url: url(user), disableOfflineQueue: true, socket: { reconnectStrategy: false } });
  client.on('error', () => undefined);
  clients.push(client);
  return client.connect();
}
/**
 * A client that has not signed in. It speaks RESP2: the RESP3 greeting (HELLO 3) is itself
 * refused before signing in, so such a client could not even connect.
 */
async function anonymous() {
  const client = createClient({
    url: redisUrl('tuber-test').replace(/\/\/[^@]*@/, '//'),
    RESP: 2,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  clients.push(client);
  return client.connect();
}

const stamp = Date.now();
const authKey = `auth:reset:credentials-test-${stamp}`;
const nutritionKey = `nutrition:credentials-test-${stamp}`;
let admin: RedisClientType;

beforeAll(async () => {
  admin = await as('tuber-test');
  await admin.set(authKey, 'secret-token-owner', { expiration: { type: 'EX', value: 60 } });
  await admin.set(nutritionKey, 'cached', { expiration: { type: 'EX', value: 60 } });
});

afterAll(async () => {
  await admin?.del([authKey, nutritionKey]);
  for (const client of clients) if (client.isOpen) client.destroy();
});

describe('Redis requires credentials', () => {
  it('refuses commands from a client that did not sign in, and the default user is off', async () => {
    const stranger = await anonymous();
    await expect(stranger.get(authKey)).rejects.toThrow(/NOAUTH/);
    await expect(stranger.auth({ username: 'default', password: '' })).rejects.toThrow(/WRONGPASS/);
  });

  it('refuses a service user with a wrong password', async () => {
    const stranger = await anonymous();
    await expect(stranger.auth({ username: 'nutrition', password: 'not-the-password' })).rejects.toThrow(/WRONGPASS/);
    await expect(stranger.get(authKey)).rejects.toThrow(/NOAUTH/);
  });

  it('refuses the RESP3 greeting of a client that brings no credentials', async () => {
    const client = createClient({
      url: redisUrl('tuber-test').replace(/\/\/[^@]*@/, '//'),
      socket: { reconnectStrategy: false },
    });
    client.on('error', () => undefined);
    await expect(client.connect()).rejects.toThrow(/NOAUTH/);
  });
});

describe('each service reaches only its own keys', () => {
  it('nutrition reads and writes nutrition:* keys', async () => {
    const nutrition = await as('nutrition');
    expect(await nutrition.get(nutritionKey)).toBe('cached');
    await nutrition.set(`${nutritionKey}:own`, '1', { expiration: { type: 'EX', value: 60 } });
    expect(await admin.get(`${nutritionKey}:own`)).toBe('1');
    await nutrition.del(`${nutritionKey}:own`);
  });

  it('nutrition cannot read, overwrite or delete the auth service’s reset tokens, not even from a script', async () => {
    const nutrition = await as('nutrition');
    await expect(nutrition.get(authKey)).rejects.toThrow(/NOPERM/);
    await expect(nutrition.set(authKey, 'forged')).rejects.toThrow(/NOPERM/);
    await expect(nutrition.del(authKey)).rejects.toThrow(/NOPERM/);
    await expect(nutrition.eval("return redis.call('GET', ARGV[1])", { arguments: [authKey] })).rejects.toThrow(/NOPERM|can't access/i);
    expect(await admin.get(authKey)).toBe('secret-token-owner');
  });

  it('orders keeps its locks and rate counters under orders:* and cannot touch the catalog’s product locks', async () => {
    const orders = await as('orders');
    const own = `orders:lock:credentials-test-${stamp}`;
    expect(await orders.set(own, 'token', { NX: true, PX: 5_000 })).toBe('OK');
    expect(await admin.get(own)).toBe('token');
    await orders.del(own);
    await expect(orders.set(`catalog:lock:product:credentials-test-${stamp}`, 'forged')).rejects.toThrow(/NOPERM/);
    await expect(orders.get(authKey)).rejects.toThrow(/NOPERM/);
  });

  it('moderation keeps its locks under moderation:*, records ended sign-ins (a suspension, ADR 0071) and cannot touch another service’s keys', async () => {
    const moderation = await as('moderation');
    const own = `moderation:lock:credentials-test-${stamp}`;
    expect(await moderation.set(own, 'token', { NX: true, PX: 5_000 })).toBe('OK');
    expect(await admin.get(own)).toBe('token');
    await moderation.del(own);
    // A suspension ends the account's sign-ins at once: the moderation service writes those records too.
    const ended = `auth:revoked-sid:credentials-test-moderation-${stamp}`;
    expect(await moderation.set(ended, '1', { expiration: { type: 'EX', value: 60 } })).toBe('OK');
    expect(await admin.exists(ended)).toBe(1);
    await admin.del(ended);
    await expect(moderation.get(`profile:lock:user:credentials-test-${stamp}`)).rejects.toThrow(/NOPERM/);
    await expect(moderation.get(authKey)).rejects.toThrow(/NOPERM/);
  });

  it('every service may check, but not write or remove, the sign-ins the auth service ended (ADR 0056)', async () => {
    const ended = `auth:revoked-sid:credentials-test-${stamp}`;
    const auth = await as('auth');
    await auth.set(ended, '1', { expiration: { type: 'EX', value: 60 } });
    const orders = await as('orders');
    expect(await orders.exists(ended)).toBe(1);
    await expect(orders.set(ended, 'forged')).rejects.toThrow(/NOPERM/);
    await expect(orders.del(ended)).rejects.toThrow(/NOPERM/);
    // Only those records: the rest of the auth service's keys stay out of reach.
    await expect(orders.exists(authKey)).rejects.toThrow(/NOPERM/);
    await auth.del(ended);
  });

  it('auth cannot read the nutrition cache', async () => {
    const auth = await as('auth');
    await expect(auth.get(nutritionKey)).rejects.toThrow(/NOPERM/);
  });

  it('a service user cannot list keys, flush, reconfigure the server or manage users', async () => {
    const catalog = await as('catalog');
    await expect(catalog.keys('*')).rejects.toThrow(/NOPERM/);
    await expect(catalog.scan('0')).rejects.toThrow(/NOPERM/);
    await expect(catalog.flushAll()).rejects.toThrow(/NOPERM/);
    await expect(catalog.configGet('requirepass')).rejects.toThrow(/NOPERM/);
    await expect(catalog.sendCommand(['ACL', 'LIST'])).rejects.toThrow(/NOPERM/);
    await expect(catalog.subscribe('anything', () => undefined)).rejects.toThrow(/NOPERM/);
    expect(await admin.get(nutritionKey)).toBe('cached');
  });
});

describe("the catalog's read model's own Redis (docs/adr/0061)", () => {
  it('knows only the catalog and tuber-test: another service cannot sign in there', async () => {
    await expect(as('auth', readModelRedisUrl)).rejects.toThrow(/WRONGPASS/);
    await expect(as('orders', readModelRedisUrl)).rejects.toThrow(/WRONGPASS/);
  });

  it('lets the catalog keep its catalog:* keys, and nothing else, not even read the ended sign-ins', async () => {
    const catalog = await as('catalog', readModelRedisUrl);
    const own = `catalog:credentials-test-${stamp}`;
    await catalog.set(own, '1', { expiration: { type: 'EX', value: 60 } });
    expect(await catalog.get(own)).toBe('1');
    await catalog.del(own);
    await expect(catalog.set(`auth:session:credentials-test-${stamp}`, 'forged')).rejects.toThrow(/NOPERM/);
    await expect(catalog.exists(`auth:revoked-sid:credentials-test-${stamp}`)).rejects.toThrow(/NOPERM/);
  });

  it('refuses the catalog any change of its budget; tuber-test (the tests) may read and set it', async () => {
    const catalog = await as('catalog', readModelRedisUrl);
    await expect(catalog.configSet('maxmemory', '0')).rejects.toThrow(/NOPERM/);
    const tester = await as('tuber-test', readModelRedisUrl);
    expect(Number((await tester.configGet('maxmemory')).maxmemory)).toBeGreaterThan(0);
    expect((await tester.configGet('maxmemory-policy'))['maxmemory-policy']).toBe('noeviction');
  });
});
