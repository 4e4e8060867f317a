// The catalog's hot reads from Redis (ADR 0023): the feed as one sorted set, each product's API
// JSON under its own key, and one sorted set per farmer for "my products". MongoDB stays the
// truth; this is a copy kept by the catalog's own writes (after they commit), by durable consumers
// of its own events (which re-read the document, so a late or repeated event sets the truth
// again) and rebuilt from MongoDB whenever it cannot be trusted. Until it can, reads say
// "unavailable" and the routes serve from MongoDB; a Redis that is away never fails a request.
//
// Keys (prefix P, `catalog:rm:` by default):
//   P ready           marker: the Redis run id the copy was built on (a restart from an older
//                     snapshot or a flush takes it away, and a rebuild follows)
//   P feed            sorted set, member product_id, score created_at in ms; equal scores are
//                     ordered by member, so reversed it is the feed's (created_at, product_id) desc
//   P p:<id>          "<bucket>|<created ms>|<farmer id>|<API JSON>" of one product
//   P f:<farmer id>   sorted set like feed, one farmer's products
//   P gone:<id>       tombstone (a day): a late copy of a deleted product is not put back
//   P building        lock: one rebuild at a time across instances
import type { FastifyBaseLogger } from 'fastify';
import type { FeedPosition } from './cursor.js';
import { toApiProduct, type ProductDocument, type ProductModel } from './product.js';

/** The commands we need from either Redis client (node-redis `sendCommand`, ioredis `call`). */
export interface RedisLike {
  sendCommand?: (args: string[]) => Promise<unknown>;
  call?: (command: string, ...args: string[]) => Promise<unknown>;
  on?: (event: string, listener: () => void) => unknown;
}

const TOMBSTONE_SECONDS = 86_400;
const MINE_MAX = 500;

// A product is put only if no tombstone says it was deleted; key, feed and farmer set together.
const PUT = `
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
return 1`;

const REMOVE = `
redis.call('SET', KEYS[4], '1', 'EX', ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`;

// Members after a position: those with the position's score and a smaller id (compared byte by
// byte: Lua's < follows the server's locale), then lower scores. Returns the products' values.
const PAGE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local n = tonumber(ARGV[1])
local ids = {}
local function before(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
if ARGV[2] == '' then
  ids = redis.call('ZRANGE', KEYS[2], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, n)
else
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], ARGV[2], ARGV[2], 'BYSCORE', 'REV')) do
    if #ids < n and before(id, ARGV[3]) then ids[#ids + 1] = id end
  end
  if #ids < n then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[2], '(' .. ARGV[2], '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, n - #ids)) do
      ids[#ids + 1] = id
    end
  end
end
if #ids == 0 then return {} end
local keys = {}
for i, id in ipairs(ids) do keys[i] = ARGV[4] .. id end
return redis.call('MGET', unpack(keys))`;

const GET = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local value = redis.call('GET', KEYS[2])
if value then return { value } end
return {}`;

interface Stored {
  bucket: number;
  createdMs: number;
  farmerId: string;
  json: string;
}

function parse(value: string): Stored {
  const a = value.indexOf('|');
  const b = value.indexOf('|', a + 1);
  const c = value.indexOf('|', b + 1);
  return {
    bucket: Number(value.slice(0, a)),
    createdMs: Number(value.slice(a + 1, b)),
    farmerId: value.slice(b + 1, c),
    json: value.slice(c + 1),
  };
}

export function storedValue(doc: ProductDocument): string {
  return `${doc.feed_bucket}|${doc.created_at.getTime()}|${doc.farmer_id}|${JSON.stringify(toApiProduct(doc))}`;
}

class Unavailable extends Error {}

export interface ReadModelOptions {
  /** Key prefix inside the catalog's own `catalog:` keys. */
  prefix: string;
  log: FastifyBaseLogger;
  /** A read waiting longer than this is served from MongoDB instead. */
  timeoutMs?: number;
  /** Off: every read goes to MongoDB and nothing is written (benchmarks of the database path). */
  enabled?: boolean;
}

export class ReadModel {
  readonly #redis: RedisLike;
  readonly #Product: ProductModel;
  readonly #log: FastifyBaseLogger;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #enabled: boolean;
  readonly #sha = new Map<string, string>();
  /** A write could not be applied: the copy is rebuilt once Redis answers. */
  #dirty = false;
  #building: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(redis: RedisLike, Product: ProductModel, options: ReadModelOptions) {
    this.#redis = redis;
    this.#Product = Product;
    this.#log = options.log;
    this.#prefix = options.prefix;
    this.#timeoutMs = options.timeoutMs ?? 500;
    this.#enabled = options.enabled ?? true;
  }

  #key = {
    ready: () => `${this.#prefix}ready`,
    feed: () => `${this.#prefix}feed`,
    product: (id: string) => `${this.#prefix}p:${id}`,
    farmer: (id: string) => `${this.#prefix}f:${id}`,
    gone: (id: string) => `${this.#prefix}gone:${id}`,
    building: () => `${this.#prefix}building`,
  };

  #send(args: string[]): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const call = this.#redis.sendCommand ? this.#redis.sendCommand(args) : this.#redis.call!(args[0]!, ...args.slice(1));
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Unavailable(`Redis did not answer ${args[0]} within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    call.catch(() => undefined);
    return Promise.race([call, late]).finally(() => clearTimeout(timer));
  }

  /** Runs a script by its digest, loading it the first time (or after the server lost it). */
  async #script(source: string, keys: string[], args: string[]): Promise<unknown> {
    if (!this.#enabled) return false; // reads: "unavailable"; writes: nothing to keep
    let sha = this.#sha.get(source);
    if (!sha) {
      sha = String(await this.#send(['SCRIPT', 'LOAD', source]));
      this.#sha.set(source, sha);
    }
    try {
      return await this.#send(['EVALSHA', sha, String(keys.length), ...keys, ...args]);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      this.#sha.delete(source);
      return this.#script(source, keys, args);
    }
  }

  /** A read that found no marker, or no Redis: serve from MongoDB and see to a rebuild. */
  #unavailable(err?: unknown): undefined {
    if (err) this.#log.debug({ err }, 'read model unavailable; serving from MongoDB');
    this.ensure();
    return undefined;
  }

  // ---- reads: undefined means "ask MongoDB" ----

  /** A feed page: the products' API JSON, in order, and the position of the last one. */
  async feedPage(limit: number, position?: FeedPosition): Promise<{ items: string[]; last?: FeedPosition; more: boolean } | undefined> {
    let values: unknown;
    try {
      values = await this.#script(
        PAGE,
        [this.#key.ready(), this.#key.feed()],
        [String(limit + 1), position ? String(position.createdAt.getTime()) : '', position?.productId ?? '', `${this.#prefix}p:`],
      );
    } catch (err) {
      return this.#unavailable(err);
    }
    if (!Array.isArray(values)) return this.#unavailable();
    const stored = (values as (string | null)[]).filter((v): v is string => typeof v === 'string').map(parse);
    const page = stored.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((s) => s.json),
      more: stored.length > limit,
      last: last && {
        createdAt: new Date(last.createdMs),
        productId: (JSON.parse(last.json) as { product_id: string }).product_id,
        bucket: last.bucket,
      },
    };
  }

  /** One product's API JSON, null when there is no such product. */
  async product(productId: string): Promise<string | null | undefined> {
    let reply: unknown;
    try {
      reply = await this.#script(GET, [this.#key.ready(), this.#key.product(productId)], []);
    } catch (err) {
      return this.#unavailable(err);
    }
    if (!Array.isArray(reply)) return this.#unavailable();
    return typeof reply[0] === 'string' ? parse(reply[0]).json : null;
  }

  /** A farmer's products, newest first (at most 500), as API JSON. */
  async farmerProducts(farmerId: string): Promise<string[] | undefined> {
    let values: unknown;
    try {
      values = await this.#script(PAGE, [this.#key.ready(), this.#key.farmer(farmerId)], [String(MINE_MAX), '', '', `${this.#prefix}p:`]);
    } catch (err) {
      return this.#unavailable(err);
    }
    if (!Array.isArray(values)) return this.#unavailable();
    return (values as (string | null)[]).filter((v): v is string => typeof v === 'string').map((v) => parse(v).json);
  }

  // ---- writes: after MongoDB committed; a failure marks the copy for a rebuild ----

  async #put(doc: ProductDocument): Promise<void> {
    if (doc.deleting) return this.#remove(doc.product_id, doc.farmer_id);
    await this.#script(
      PUT,
      [this.#key.product(doc.product_id), this.#key.feed(), this.#key.farmer(doc.farmer_id), this.#key.gone(doc.product_id)],
      [String(doc.created_at.getTime()), doc.product_id, storedValue(doc)],
    );
  }

  async #remove(productId: string, farmerId: string): Promise<void> {
    await this.#script(
      REMOVE,
      [this.#key.product(productId), this.#key.feed(), this.#key.farmer(farmerId), this.#key.gone(productId)],
      [productId, String(TOMBSTONE_SECONDS)],
    );
  }

  async #guard(what: string, write: () => Promise<void>, rethrow: boolean): Promise<void> {
    if (!this.#enabled) return;
    try {
      await write();
    } catch (err) {
      this.#dirty = true;
      this.#log.warn({ err }, `read model: ${what} not applied; it will be rebuilt from MongoDB`);
      await this.#send(['DEL', this.#key.ready()]).catch(() => undefined);
      if (rethrow) throw err;
    }
  }

  /** Write-through of a document just written. */
  put(doc: ProductDocument): Promise<void> {
    return this.#guard('product write', () => this.#put(doc), false);
  }

  /** Write-through of a deletion. */
  remove(productId: string, farmerId: string): Promise<void> {
    return this.#guard('product removal', () => this.#remove(productId, farmerId), false);
  }

  /** Sets one product to what MongoDB holds now (gone or deleting: removed). Idempotent, order-safe. */
  refresh(productId: string, farmerId: string, rethrow = true): Promise<void> {
    return this.#guard(
      'product refresh',
      async () => {
        const doc = await this.#Product.findOne({ product_id: productId }).lean();
        if (doc) await this.#put(doc);
        else await this.#remove(productId, farmerId);
      },
      rethrow,
    );
  }

  /** Sets every product of a farmer to what MongoDB holds (their name and place are on each). */
  refreshFarmer(farmerId: string, rethrow = true): Promise<void> {
    return this.#guard(
      'farmer refresh',
      async () => {
        const docs = await this.#Product.find({ farmer_id: farmerId }).lean();
        for (const doc of docs) await this.#put(doc);
        const listed = (await this.#send(['ZRANGE', this.#key.farmer(farmerId), '0', '-1'])) as string[];
        const present = new Set(docs.map((d) => d.product_id));
        for (const id of listed) if (!present.has(id)) await this.#remove(id, farmerId);
      },
      rethrow,
    );
  }

  // ---- building the copy ----

  async #runId(): Promise<string> {
    const info = String(await this.#send(['INFO', 'server']));
    return /run_id:(\w+)/.exec(info)?.[1] ?? 'unknown';
  }

  /** Whether the copy is complete and was built on this Redis run (a restart from a snapshot may have lost writes). */
  async #trusted(): Promise<boolean> {
    const [marker, runId] = await Promise.all([this.#send(['GET', this.#key.ready()]), this.#runId()]);
    if (marker === runId && !this.#dirty) return true;
    if (marker !== null) await this.#send(['DEL', this.#key.ready()]);
    return false;
  }

  /** Starts a rebuild in the background unless the copy is trusted or one is under way. */
  ensure(): void {
    if (this.#building || !this.#enabled) return;
    this.#building = this.#check()
      .catch((err: unknown) => this.#log.warn({ err }, 'read model: rebuild failed; reads stay on MongoDB and it is tried again'))
      .finally(() => {
        this.#building = undefined;
      });
  }

  /** Resolves once any rebuild this instance started is over (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.#building) await this.#building;
  }

  async #check(): Promise<void> {
    if (await this.#trusted()) return;
    const lock = await this.#send(['SET', this.#key.building(), String(process.pid), 'NX', 'EX', '300']);
    if (lock === null) return; // another instance is at it
    try {
      await this.rebuild();
    } finally {
      await this.#send(['DEL', this.#key.building()]).catch(() => undefined);
    }
  }

  /**
   * Copies every product from MongoDB, then removes what the copy holds that MongoDB no longer
   * has (each re-checked: a product posted meanwhile stays), and sets the marker.
   */
  async rebuild(): Promise<number> {
    const started = Date.now();
    this.#dirty = false;
    const runId = await this.#runId();
    const seen = new Set<string>();
    let batch: Promise<void>[] = [];
    for await (const doc of this.#Product
      .find({ deleting: { $ne: true } })
      .lean()
      .cursor({ batchSize: 1000 })) {
      seen.add(doc.product_id);
      batch.push(this.#put(doc as ProductDocument));
      if (batch.length >= 200) {
        await Promise.all(batch);
        batch = [];
      }
    }
    await Promise.all(batch);
    const listed = (await this.#send(['ZRANGE', this.#key.feed(), '0', '-1'])) as string[];
    for (const id of listed) {
      if (seen.has(id)) continue;
      const value = (await this.#send(['GET', this.#key.product(id)])) as string | null;
      const doc = await this.#Product.findOne({ product_id: id }).lean();
      if (doc && !doc.deleting) await this.#put(doc);
      else await this.#remove(id, doc?.farmer_id ?? (value ? parse(value).farmerId : ''));
    }
    if (this.#dirty) throw new Error('a write failed during the rebuild');
    await this.#send(['SET', this.#key.ready(), runId]);
    this.#log.info({ products: seen.size, ms: Date.now() - started }, 'read model built from MongoDB');
    return seen.size;
  }

  /** Checks now and every `intervalMs` (and when the client reconnects) that the copy can be trusted. */
  start(intervalMs = 5_000): void {
    this.ensure();
    this.#timer = setInterval(() => this.ensure(), intervalMs);
    this.#timer.unref();
    this.#redis.on?.('ready', () => this.ensure());
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.settled();
  }
}
