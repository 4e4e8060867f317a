// The kit's Redis client (node-redis, docs/adr/0028) against the running Redis: a refused sign-in
// stops a start at once and says so, a server that never answers stops it after the start-up
// time, and while the server is away commands fail at once (nothing queues), /ready names Redis,
// and the client comes back by itself. Redis is reached through a relay the test can cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { closeRedis, connectRedis, createServiceApp, redisReconnectDelay, useRedis, type ServiceApp } from '../../src/index.js';
import { redisUrl } from '../../../../test/support/credentials.js';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

let relay: TcpProxy;
beforeAll(async () => {
  const target = new URL(redisUrl());
  relay = await tcpProxy(target.hostname, Number(target.port || 6379));
});
afterAll(async () => relay?.close());

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** How long `work` takes to settle, and its error. */
const timed = async (work: () => Promise<unknown>) => {
  const started = Date.now();
  const error = await work().then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  return { ms: Date.now() - started, error };
};

describe('starting with Redis', () => {
  it('fails at once when Redis refuses the sign-in, naming the refusal but not the password', async () => {
    const url = new URL(redisUrl('nutrition'));
    url.password = 'not-the-password';
    const { ms, error } = await timed(() => connectRedis(url.toString()));
    expect(error?.message).toMatch(/^Redis at redis:\/\/nutrition:\*\*\*@127\.0\.0\.1:\d+ refused the sign-in: WRONGPASS/);
    expect(error?.message).not.toContain('not-the-password');
    expect(ms).toBeLessThan(3_000);
  });

  it('fails after the start-up time when nothing answers, with the last connection error', async () => {
    const url = new URL(redisUrl());
    url.port = String(await closedPort());
    const { ms, error } = await timed(() => connectRedis(url.toString(), { startupTimeoutMs: 1_500 }));
    expect(error?.message).toMatch(/did not become ready within 1500 ms: connect ECONNREFUSED/);
    expect(ms).toBeGreaterThanOrEqual(1_400);
    expect(ms).toBeLessThan(4_000);
  });

  it('waits between reconnection attempts 200 ms longer each time, never more than 2 s', () => {
    expect([0, 1, 4, 9, 50].map(redisReconnectDelay)).toEqual([200, 400, 1_000, 2_000, 2_000]);
  });
});

describe('a service app using Redis', () => {
  let app: ServiceApp;
  let redis: Awaited<ReturnType<typeof useRedis>>;
  const key = `nutrition:kit-redis-test:${randomUUID()}`;

  beforeAll(async () => {
    app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
    redis = await useRedis(app, relay.url(redisUrl()));
    await app.ready();
  });
  afterAll(async () => {
    await redis?.del(key).catch(() => undefined);
    await app?.close();
  });

  it('refuses commands at once while Redis is away, is not ready then, and reconnects by itself', async () => {
    await redis.set(key, 'yam', { expiration: { type: 'EX', value: 60 } });
    expect((await app.inject('/ready')).statusCode).toBe(200);

    await relay.cut();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { ms, error } = await timed(() => redis.get(key));
      expect(error?.message).toMatch(/The client is (offline|closed)|Socket closed unexpectedly/);
      expect(ms).toBeLessThan(500);
      const ready = await app.inject('/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toMatch(/redis/);
    } finally {
      await relay.restore();
    }

    let value: string | null = null;
    for (let i = 0; i < 40 && value === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      value = await redis.get(key).catch(() => null);
    }
    expect(value).toBe('yam');
    expect((await app.inject('/ready')).statusCode).toBe(200);
  });

  it('is closed when the app closes', async () => {
    const other = await createServiceApp({ name: 'demo', logLevel: 'silent' });
    const client = await useRedis(other, redisUrl());
    expect(client.isOpen).toBe(true);
    await other.close();
    expect(client.isOpen).toBe(false);
    await closeRedis(client); // closing twice is harmless
  });
});
