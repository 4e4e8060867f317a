// A big catalogue never takes sign-in down (issue 24, docs/adr/0061). The read model has a Redis of
// its own with its own memory budget; this fills it to its cap, the way a catalogue too big for the
// budget would (its maxmemory lowered to just above what it holds, then filled with keys of the
// tests' own until it answers OOM; both undone in the end), and shows against the real servers:
//  - the running stack: a real Keycloak sign-in kept by the auth service, its refresh, the catalog's
//    per-farmer limit counting to its 429, and the feed answering from MongoDB, with the catalog's
//    metrics saying the read model is degraded and full;
//  - an in-process catalog on a scratch database: the feed and a search give the same pages as from
//    Redis before the fill, writes to the full copy and its rebuild are refused without an error
//    reaching a route or an event handler;
//  - the old layout, one Redis for everything (apps built in-process on the full instance alone): the
//    same fill refuses the kept sign-in ("Sign-in is unavailable right now") and the limits;
//  - once there is room again, the running catalog rebuilds its copy and serves from Redis again.
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { CatalogConfig } from '../../src/config.js';
import { PRODUCT_EDIT_LIMIT } from '../../src/routes/farmer-products.js';
import { buildApp as buildAuthApp } from '../../../auth/src/app.js';
import { AuthConfig } from '../../../auth/src/config.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl, natsUrl, readModelRedisUrl, redisUrl } from '../../../../test/support/credentials.js';
import { PUBLIC_URL, serviceEnv } from '../../../../test/support/env.js';
import { signInWithPassword } from '../../../../test/support/keycloak.js';
import { storedProduct, writeProducts } from './stored-products.js';

const run = randomUUID().slice(0, 8);
const dbName = `catalog_test_rmfull_${run}`;
const prefix = `catalog:test:${run}:`;
const fillPrefix = `catalog:test:fill:${run}:`;
const PRODUCTS = 40;
const CATALOG = `http://127.0.0.1:${process.env.CATALOG_PORT ?? 4003}`;
const METRICS = `http://127.0.0.1:${Number(process.env.CATALOG_PORT ?? 4003) + Number(process.env.METRICS_PORT_OFFSET ?? 5400)}/metrics`;
/** The running catalog's read model (READ_MODEL_PREFIX's default). */
const RUNNING_READY = 'catalog:rm:ready';

let buyer: TestAccount;
let farmer: TestAccount;
let readModelRedis: RedisClientType;
let mainRedis: RedisClientType;
let db: mongoose.Connection;
/** The catalog as deployed now: sessions, limits and locks on the main Redis, the read model on its own. */
let catalog: ServiceApp;
/** The old layout: everything on one Redis (the read model's, full during the test). */
let oneRedisCatalog: ServiceApp;
let restoreMaxmemory: string | undefined;
const fillKeys: string[] = [];

const env = { ...serviceEnv('catalog'), MONGO_URL: mongoUrl(dbName), READ_MODEL_PREFIX: prefix };

const get = (app: ServiceApp, url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${buyer.accessToken}` } });

async function walk(app: ServiceApp, query: string) {
  const pages: unknown[] = [];
  let cursor: string | null = null;
  do {
    const answer = await get(app, `/api/catalog/products?limit=7${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as { items: unknown[]; next_cursor: string | null };
    pages.push(body);
    cursor = body.next_cursor;
  } while (cursor && pages.length < 50);
  return pages;
}

async function memory(redis: RedisClientType) {
  const info = await redis.info('memory');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1]);
  return { used: field('used_memory'), max: field('maxmemory') };
}

/**
 * Lowers the read model's budget to just above what it holds and fills it until it refuses (OOM);
 * then sets the budget 2 MB below what it holds: a full Redis hovers at its cap, and the memory a
 * refused command's own buffers or an expiring cached search give back would otherwise let the next
 * write in. Answers the refusal.
 */
async function fill(): Promise<string> {
  const config = (await readModelRedis.configGet('maxmemory')) as Record<string, string>;
  restoreMaxmemory = config.maxmemory;
  const { used } = await memory(readModelRedis);
  await readModelRedis.configSet('maxmemory', String(used + 4 * 1024 * 1024));
  const value = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 800; i++) {
    const key = `${fillPrefix}${i}`;
    try {
      await readModelRedis.set(key, value, { expiration: { type: 'EX', value: 600 } });
      fillKeys.push(key);
    } catch (err) {
      const refusal = (err as Error).message;
      const full = await memory(readModelRedis);
      await readModelRedis.configSet('maxmemory', String(full.used - 2 * 1024 * 1024));
      return refusal;
    }
  }
  throw new Error('the read model Redis took 50 MB more without refusing: its maxmemory was not lowered');
}

async function unfill(): Promise<void> {
  if (restoreMaxmemory !== undefined) await readModelRedis.configSet('maxmemory', restoreMaxmemory);
  restoreMaxmemory = undefined;
  if (fillKeys.length) await readModelRedis.del(fillKeys.splice(0));
}

/** Labels every series carries (the resource and the instrumentation scope), left out of the map's keys. */
const COMMON_LABELS = /^(service_name|otel_scope_\w+|job|instance)$/;

/** The running catalog's read model metrics, keyed `name` or `name{label="value",…}` without the common labels. */
async function metrics(): Promise<Map<string, number>> {
  const text = await (await fetch(METRICS)).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(tuber_catalog_read_model_\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)]
      .filter(([, name]) => !COMMON_LABELS.test(name!))
      .map(([, name, value]) => `${name}="${value}"`);
    samples.set(labels.length ? `${match[1]}{${labels.sort().join(',')}}` : match[1]!, Number(match[3]));
  }
  return samples;
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A kept sign-in as the shell hands it over (Keycloak's code + PKCE, then the auth service's custody). */
async function keptSignIn(
  account: TestAccount,
  handOff: (bearer: string, refreshToken: string) => Promise<{ status: number; body: string; cookie?: string }>,
) {
  const tokens = await signInWithPassword(account.email, account.password);
  return handOff(tokens.accessToken, tokens.refreshToken);
}

const throughGateway = async (bearer: string, refreshToken: string) => {
  const answer = await fetch(`${PUBLIC_URL}/api/auth/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  const cookie = answer.headers
    .getSetCookie()
    .find((line) => line.startsWith('tuber_session='))
    ?.split(';')[0];
  return { status: answer.status, body: await answer.text(), ...(cookie ? { cookie } : {}) };
};

beforeAll(async () => {
  [buyer, farmer] = await Promise.all([signedInAccount({ role: 'buyer' }), signedInAccount({ role: 'farmer' })]);
  readModelRedis = createClient({ url: readModelRedisUrl() });
  mainRedis = createClient({ url: redisUrl() });
  await Promise.all([readModelRedis.connect(), mainRedis.connect()]);
  db = await mongoose.createConnection(mongoUrl(dbName)).asPromise();
  const start = Date.parse('2026-11-20T09:00:00.000Z');
  await writeProducts(
    db,
    Array.from({ length: PRODUCTS }, (_, n) =>
      storedProduct({
        product_id: randomUUID(),
        farmer_id: n % 4 === 0 ? farmer.id : `farmer-${n % 5}`,
        product_name: n % 3 === 0 ? `Cassava lot ${n}` : `Yam lot ${n}`,
        tuber_type: n % 3 === 0 ? 'cassava' : 'yam',
        price_kobo: 150_000 + n * 1_000,
        price_per_kg_kobo: 15_000 + n * 100,
        created_at: new Date(start + n * 60_000),
        business_name: `Farm ${n % 5}`,
        location: n % 2 ? 'Ibadan' : 'Oyo',
        ...(n % 10 === 9 ? { status: 'sold_out' as const } : {}),
      }),
    ),
  );
  // In-process copies leave the running catalog's durable consumers alone (events: false).
  catalog = await buildApp(loadConfig(CatalogConfig, { ...env, CATALOG_READMODEL_REDIS_URL: readModelRedisUrl() }), { events: false });
  await catalog.readModel!.settled();
  // Built before the fill: on a full Redis the old layout could not even take its start-up lease.
  oneRedisCatalog = await buildApp(
    loadConfig(CatalogConfig, { ...env, READ_MODEL_PREFIX: `${prefix}old:`, REDIS_URL: readModelRedisUrl() }),
    {
      events: false,
    },
  );
  await oneRedisCatalog.readModel!.settled();
}, 180_000);

afterAll(async () => {
  // Each step on its own: the budget and the scratch keys go back even if an app does not close cleanly.
  await unfill().catch(() => undefined);
  await Promise.allSettled([catalog?.close(), oneRedisCatalog?.close()]);
  await db?.dropDatabase().catch(() => undefined);
  await db?.close().catch(() => undefined);
  if (readModelRedis?.isOpen) {
    for await (const keys of readModelRedis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1_000 }))
      if (keys.length) await readModelRedis.unlink(keys);
    await readModelRedis.quit();
  }
  if (mainRedis?.isOpen) await mainRedis.quit();
  await Promise.all([buyer, farmer].filter(Boolean).map((a) => deleteAccount(a.id)));
}, 120_000);

describe('the read model has a Redis of its own', () => {
  it('keeps the copy there, apart from the main Redis of sessions, limits and locks, each with its own budget', async () => {
    expect(await readModelRedis.exists(`${prefix}ready`)).toBe(1);
    expect(await mainRedis.exists(`${prefix}ready`)).toBe(0);
    expect(await readModelRedis.exists(RUNNING_READY)).toBe(1);
    const [own, main] = await Promise.all([memory(readModelRedis), memory(mainRedis)]);
    expect(own.max).toBeGreaterThan(0);
    expect(main.max).toBeGreaterThan(0);
    expect((await readModelRedis.configGet('maxmemory-policy'))['maxmemory-policy']).toBe('noeviction');
  });

  it('refuses the catalog user anything outside its own keys and any reconfiguration there', async () => {
    const client = createClient({ url: readModelRedisUrl('catalog') });
    await client.connect();
    try {
      await expect(client.set('auth:session:forged', '1')).rejects.toThrow(/NOPERM/);
      await expect(client.configSet('maxmemory', '0')).rejects.toThrow(/NOPERM/);
      await expect(client.keys('*')).rejects.toThrow(/NOPERM/);
    } finally {
      await client.quit();
    }
  });
});

describe('with the read model full', () => {
  let fromRedis: { feed: unknown[]; search: unknown[]; sorted: unknown[] };
  let refusal: string;
  let before: Map<string, number>;

  beforeAll(async () => {
    fromRedis = {
      feed: await walk(catalog, ''),
      search: await walk(catalog, '&q=cassava'),
      sorted: await walk(catalog, '&sort=price_per_kg&location=ibadan'),
    };
    expect(catalog.readModel!.health()).toEqual({ degraded: false, full: false });
    before = await metrics();
    refusal = await fill();
    // The running catalog's copy is taken away, as a restart of its Redis would: it must rebuild, into a full Redis.
    await readModelRedis.del(RUNNING_READY);
  }, 120_000);

  it('is refused by its Redis for memory, while the main Redis has room', async () => {
    expect(refusal).toMatch(/^OOM command not allowed when used memory > 'maxmemory'/);
    const main = await memory(mainRedis);
    expect(main.used).toBeLessThan(main.max);
  });

  it('the running catalog says so on its metrics: degraded and full', async () => {
    const samples = await until(metrics, (m) => m.get('tuber_catalog_read_model_full') === 1, 30_000);
    expect(samples.get('tuber_catalog_read_model_full')).toBe(1);
    expect(samples.get('tuber_catalog_read_model_degraded')).toBe(1);
    expect(samples.get('tuber_catalog_read_model_memory{kind="max"}')).toBeGreaterThan(0);
  });

  it('the feed still answers, from MongoDB, through the gateway and from the catalog itself', async () => {
    const counted = () => (m: Map<string, number>) => m.get('tuber_catalog_read_model_database_reads_total{read="feed"}') ?? 0;
    const viaGateway = await fetch(`${PUBLIC_URL}/api/catalog/products?limit=12`, {
      headers: { authorization: `Bearer ${buyer.accessToken}` },
    });
    expect(viaGateway.status).toBe(200);
    const direct = await fetch(`${CATALOG}/api/catalog/products?limit=12`, { headers: { authorization: `Bearer ${buyer.accessToken}` } });
    expect(direct.status).toBe(200);
    const page = (await direct.json()) as { items: { product_id: string }[] };
    const stored = await mongoose.createConnection(mongoUrl('catalog')).asPromise();
    try {
      const found = await stored
        .collection('product')
        .countDocuments({ product_id: { $in: page.items.map((item) => item.product_id) }, deleting: { $ne: true } });
      expect(found).toBe(page.items.length);
    } finally {
      await stored.close();
    }
    expect(counted()(await metrics())).toBeGreaterThan(counted()(before));
  });

  it('a real sign-in is kept by the auth service, and refreshed', async () => {
    const kept = await keptSignIn(buyer, throughGateway);
    expect(kept.status, kept.body).toBe(200);
    const refreshed = await fetch(`${PUBLIC_URL}/api/auth/session/token`, {
      method: 'POST',
      headers: { cookie: kept.cookie!, 'x-tuber-session': '1' },
    });
    expect(refreshed.status).toBe(200);
    expect(((await refreshed.json()) as { access_token: string }).access_token).toMatch(/^ey/);
  });

  it("the catalog's per-farmer limit still counts, to its 429", async () => {
    const counter = `catalog:rate:user:product-edits:${farmer.id}`;
    const edit = () =>
      fetch(`${CATALOG}/api/catalog/products/${randomUUID()}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${farmer.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ price: 2_000 }),
      });
    const statuses: number[] = [];
    for (let sent = 0; sent <= PRODUCT_EDIT_LIMIT.max; sent += 20) {
      const answers = await Promise.all(Array.from({ length: Math.min(20, PRODUCT_EDIT_LIMIT.max + 1 - sent) }, edit));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(Number(await mainRedis.get(counter))).toBe(PRODUCT_EDIT_LIMIT.max + 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(PRODUCT_EDIT_LIMIT.max);
    await mainRedis.del(counter);
  });

  it('an in-process catalog gives the same feed and searches as from Redis before, from MongoDB', async () => {
    // A write to the copy is refused for memory: neither a route nor an event handler hears of it.
    const someone = (await db.collection('product').findOne({}))!;
    await expect(catalog.readModel!.refresh(someone.product_id, someone.farmer_id)).resolves.toBeUndefined();
    expect(catalog.readModel!.health()).toEqual({ degraded: true, full: true });
    expect(await walk(catalog, '')).toEqual(fromRedis.feed);
    expect(await walk(catalog, '&q=cassava')).toEqual(fromRedis.search);
    expect(await walk(catalog, '&sort=price_per_kg&location=ibadan')).toEqual(fromRedis.sorted);
    // The rebuild is refused too, and the catalog keeps answering.
    await expect(catalog.readModel!.rebuild()).rejects.toThrow(/OOM/);
    expect((await get(catalog, `/api/catalog/products/${someone.product_id}`)).statusCode).toBe(200);
  });

  it('on the old layout, one Redis for everything, the same fill refuses the kept sign-in and the limits', async () => {
    // The auth service as it ran before: its sessions in the Redis the catalogue fills. Built only now and
    // closed at once: it joins the running auth service's durable consumer while it lives.
    const oneRedisAuth = await buildAuthApp(
      loadConfig(AuthConfig, {
        ...serviceEnv('auth'),
        REDIS_URL: readModelRedisUrl(),
        NATS_URL: natsUrl('auth'),
        ACCOUNT_EVENTS_POLL_MS: '0',
      }),
    );
    let kept: { status: number; body: string };
    try {
      kept = await keptSignIn(buyer, async (bearer, refreshToken) => {
        const answer = await oneRedisAuth.inject({
          method: 'POST',
          url: '/api/auth/session',
          headers: { authorization: `Bearer ${bearer}` },
          payload: { refresh_token: refreshToken },
        });
        return { status: answer.statusCode, body: answer.body };
      });
    } finally {
      await oneRedisAuth.close();
    }
    expect(kept.status).toBe(503);
    expect(JSON.parse(kept.body).message).toMatch(/^Sign-in is unavailable right now/);
    const edit = await oneRedisCatalog.inject({
      method: 'PATCH',
      url: `/api/catalog/products/${randomUUID()}`,
      headers: { authorization: `Bearer ${farmer.accessToken}` },
      payload: { price: 2_000 },
    });
    expect(edit.statusCode).toBe(503);
    expect(edit.json().message).toMatch(/^Request limits cannot be checked right now/);
  });
});

describe('once there is room again', () => {
  it('the running catalog rebuilds its copy and serves from Redis again', async () => {
    await unfill();
    const samples = await until(
      metrics,
      (m) => m.get('tuber_catalog_read_model_full') === 0 && m.get('tuber_catalog_read_model_degraded') === 0,
      90_000,
    );
    expect(samples.get('tuber_catalog_read_model_full')).toBe(0);
    expect(samples.get('tuber_catalog_read_model_degraded')).toBe(0);
    expect(await readModelRedis.exists(RUNNING_READY)).toBe(1);
    const reads = (m: Map<string, number>) => m.get('tuber_catalog_read_model_database_reads_total{read="feed"}') ?? 0;
    const counted = reads(await metrics());
    const page = await fetch(`${CATALOG}/api/catalog/products?limit=1`, { headers: { authorization: `Bearer ${buyer.accessToken}` } });
    expect(page.status).toBe(200);
    expect(reads(await metrics())).toBe(counted);
  }, 120_000);
});
