// Redis signs every client in; each service's ACL user reaches only its own `<service>:` keys and
// no administrative command (docs/adr/0017, infra/redis/acl.sh).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrl } from '../support/credentials.js';

const clients: Redis[] = [];
/** A client as `user` that reports errors instead of retrying. */
function as(user: string, url = redisUrl(user)): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    // The ready check (INFO) would itself be refused before signing in.
    enableReadyCheck: user !== 'anonymous',
  });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

const stamp = Date.now();
const authKey = `auth:reset:credentials-test-${stamp}`;
const nutritionKey = `nutrition:credentials-test-${stamp}`;
let admin: Redis;

beforeAll(async () => {
  admin = as('tuber-test');
  await admin.connect();
  await admin.set(authKey, 'secret-token-owner', 'EX', 60);
  await admin.set(nutritionKey, 'cached', 'EX', 60);
});

afterAll(async () => {
  await admin.del(authKey, nutritionKey);
  for (const client of clients) client.disconnect();
});

describe('Redis requires credentials', () => {
  it('refuses commands from a client that did not sign in, and the default user is off', async () => {
    const anonymous = as('anonymous', redisUrl('tuber-test').replace(/\/\/[^@]*@/, '//'));
    await anonymous.connect();
    await expect(anonymous.get(authKey)).rejects.toThrow(/NOAUTH/);
    await expect(anonymous.auth('default', '')).rejects.toThrow(/WRONGPASS/);
  });

  it('refuses a service user with a wrong password', async () => {
    const anonymous = as('anonymous', redisUrl('tuber-test').replace(/\/\/[^@]*@/, '//'));
    await anonymous.connect();
    await expect(anonymous.auth('nutrition', 'not-the-password')).rejects.toThrow(/WRONGPASS/);
    await expect(anonymous.get(authKey)).rejects.toThrow(/NOAUTH/);
  });
});

describe('each service reaches only its own keys', () => {
  it('nutrition reads and writes nutrition:* keys', async () => {
    const nutrition = as('nutrition');
    await nutrition.connect();
    expect(await nutrition.get(nutritionKey)).toBe('cached');
    await nutrition.set(`${nutritionKey}:own`, '1', 'EX', 60);
    expect(await admin.get(`${nutritionKey}:own`)).toBe('1');
    await nutrition.del(`${nutritionKey}:own`);
  });

  it('nutrition cannot read, overwrite or delete the auth service’s reset tokens, not even from a script', async () => {
    const nutrition = as('nutrition');
    await nutrition.connect();
    await expect(nutrition.get(authKey)).rejects.toThrow(/NOPERM/);
    await expect(nutrition.set(authKey, 'forged')).rejects.toThrow(/NOPERM/);
    await expect(nutrition.del(authKey)).rejects.toThrow(/NOPERM/);
    await expect(nutrition.eval("return redis.call('GET', ARGV[1])", 0, authKey)).rejects.toThrow(/NOPERM|can't access/i);
    expect(await admin.get(authKey)).toBe('secret-token-owner');
  });

  it('auth cannot read the nutrition cache', async () => {
    const auth = as('auth');
    await auth.connect();
    await expect(auth.get(nutritionKey)).rejects.toThrow(/NOPERM/);
  });

  it('a service user cannot list keys, flush, reconfigure the server or manage users', async () => {
    const catalog = as('catalog');
    await catalog.connect();
    await expect(catalog.keys('*')).rejects.toThrow(/NOPERM/);
    await expect(catalog.scan('0')).rejects.toThrow(/NOPERM/);
    await expect(catalog.flushall()).rejects.toThrow(/NOPERM/);
    await expect(catalog.config('GET', 'requirepass')).rejects.toThrow(/NOPERM/);
    await expect(catalog.call('ACL', 'LIST')).rejects.toThrow(/NOPERM/);
    await expect(catalog.subscribe('anything')).rejects.toThrow(/NOPERM/);
    expect(await admin.get(nutritionKey)).toBe('cached');
  });
});
