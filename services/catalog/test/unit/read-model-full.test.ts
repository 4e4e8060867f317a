// A full read model (ADR 0061), against a stand-in for its Redis that refuses every write for memory as
// a full one does: writes and event refreshes are taken without an error reaching the caller, the copy
// says it is degraded and full, a failure other than memory still reaches an event handler (to be
// handled again), and the rebuild waits for room instead of being tried on every read.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ReadModel, isOutOfMemory, type RedisLike } from '../../src/domain/read-model.js';
import type { ProductDocument, ProductModel } from '../../src/domain/product.js';

const OOM = "OOM command not allowed when used memory > 'maxmemory'.";

const product = {
  product_id: 'p-1',
  farmer_id: 'f-1',
  product_name: 'Yam lot 1',
  description: 'Harvested this week.',
  price_kobo: 150_000,
  unit: 'kg',
  unit_weight_kg: 1,
  quantity: 10,
  status: 'available',
  tuber_type: 'yam',
  images: [],
  image_cards: [],
  image_thumbs: [],
  image_ids: [],
  location: 'Ibadan',
  business_name: 'Ada Farms',
  cultural: 'Market day',
  created_at: new Date('2026-11-28T10:00:00.000Z'),
  feed_bucket: 0,
  revision: 1,
} as unknown as ProductDocument;

const Product = {
  findOne: () => ({ lean: async () => product }),
  find: () => ({ lean: async () => [product] }),
} as unknown as ProductModel;

/** Commands that may take memory (Redis's `denyoom`), as our scripts call them. */
const WRITES = /redis\.call\('(SET|ZADD|SADD|INCR|ZINTERSTORE|SUNIONSTORE|ZRANGESTORE)'/;

/**
 * A Redis at its budget: reads answer (its marker is gone, so the copy's scripts answer "not ready"),
 * writes and scripts that write are refused for memory, DEL is taken.
 */
function fullRedis(refusal = OOM) {
  const sent: string[] = [];
  const scripts = new Map<string, string>();
  let maxBytes = 1_000_000;
  const redis: RedisLike = {
    isReady: true,
    sendCommand: async (args) => {
      sent.push(args[0]!);
      switch (args[0]) {
        case 'SCRIPT':
          scripts.set(`sha${scripts.size}`, args[2]!);
          return `sha${scripts.size - 1}`;
        case 'EVALSHA':
          if (WRITES.test(scripts.get(args[1]!) ?? '')) throw new Error(refusal);
          return false;
        case 'SET':
          throw new Error(refusal);
        case 'DEL':
          return 1;
        case 'INFO':
          return args[1] === 'memory' ? `used_memory:1000100\r\nmaxmemory:${maxBytes}\r\n` : 'run_id:abc\r\n';
        default:
          return null;
      }
    },
  };
  return { redis, sent, raiseBudget: () => (maxBytes = 2_000_000) };
}

const readModelOn = (redis: RedisLike) => new ReadModel(redis, Product, { prefix: 'catalog:rm:', log: pino({ level: 'silent' }) });

describe('a full read model', () => {
  it('knows Redis’s refusal for memory, also from inside a script', () => {
    expect(isOutOfMemory(new Error(OOM))).toBe(true);
    expect(isOutOfMemory(new Error(`${OOM} script: 1234, on @user_script:5.`))).toBe(true);
    expect(isOutOfMemory(new Error('NOPERM this user has no permissions'))).toBe(false);
  });

  it('takes a write-through without an error, and says reads go to MongoDB because it is full', async () => {
    const { redis, sent } = fullRedis();
    const readModel = readModelOn(redis);
    await expect(readModel.put(product)).resolves.toBeUndefined();
    expect(readModel.health()).toEqual({ degraded: true, full: true });
    // Its marker is taken away (DEL is allowed at the budget), so every replica reads from MongoDB.
    expect(sent).toContain('DEL');
  });

  it('takes an event’s refresh without passing the refusal on: the event is not handled again and again', async () => {
    const { redis } = fullRedis();
    const readModel = readModelOn(redis);
    await expect(readModel.refresh('p-1', 'f-1')).resolves.toBeUndefined();
    await expect(readModel.refreshFarmer('f-1')).resolves.toBeUndefined();
  });

  it('still passes on a failure that is not about memory, so that the event is handled again later', async () => {
    const { redis } = fullRedis('READONLY You cannot write against a read only replica.');
    const readModel = readModelOn(redis);
    await expect(readModel.refresh('p-1', 'f-1')).rejects.toThrow(/READONLY/);
    expect(readModel.health()).toEqual({ degraded: true, full: false });
  });

  it('answers reads with "ask MongoDB" and does not try a rebuild on each of them while it waits for room', async () => {
    const { redis, sent, raiseBudget } = fullRedis();
    const readModel = readModelOn(redis);
    await readModel.put(product);
    sent.length = 0;
    for (let i = 0; i < 20; i++) expect(await readModel.product('p-1')).toBeUndefined();
    await readModel.settled();
    // No rebuild lock asked for: within its back-off, with its budget unchanged, the memory is not even looked at again.
    expect(sent.filter((command) => command === 'SET')).toHaveLength(0);
    expect(sent.filter((command) => command === 'INFO')).toHaveLength(0);
    // An operator raises the budget: the next check sees it and tries the rebuild (refused again here).
    raiseBudget();
    await new Promise((resolve) => setTimeout(resolve, 4_100));
    readModel.ensure();
    await readModel.settled();
    expect(sent).toContain('SET');
    expect(readModel.health().full).toBe(true);
  }, 10_000);
});
