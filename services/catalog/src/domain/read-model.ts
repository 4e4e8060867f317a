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
// The search projection (ADR 0029), kept by the same put/remove and the same rebuild:
//   P feed            score created_at ms, minus SOLD_OUT_FEED_SHIFT when sold out (they come last)
//   P s:price_per_kg  sorted set, score price per kg in kobo (+ SOLD_OUT_PRICE_SHIFT when sold out)
//   P s:price         sorted set, score price per unit in kobo (the same shift)
//   P ppk             sorted set, score price per kg in kobo (the price range filter)
//   P t:<word>        set of the products with that search word; P l:<word> the same for location words
//   P tu:<tuber>      set of one tuber type's products; P avail the products available now
//   P dict, P ldict   sorted sets (score 0) of every word, for prefix expansion by ZRANGE BYLEX
//   P ix:<id>         the sets a product is in (so a change or removal takes it out of the old ones)
//   P gen             counter, +1 on every write: cached query results (P q:<gen>:<hash>) go stale
// Its Redis is its own (docs/adr/0061), with a memory budget and `noeviction`: a full one refuses the
// copy's writes ("OOM command not allowed ..."), never a sign-in, a limit or a lock. Then the copy is
// marked untrusted, reads go to MongoDB (metric and log line), events go on being handled, and the
// rebuild waits until there is room (maxmemory raised, memory freed) or, at the latest, a back-off.
import type { FastifyBaseLogger } from 'fastify';
import type { FeedSort } from '@tuber/contracts';
import type { FeedPosition } from './cursor.js';
import { toApiProduct, type ProductDocument, type ProductModel } from './product.js';
import { scoreOf, type SearchPlan, type SearchPosition } from './search.js';
import { MIN_PREFIX_LENGTH, searchTermsOf } from './search-terms.js';
import { TypoDictionary } from './typos.js';

/** The commands we need from either Redis client (node-redis `sendCommand`, ioredis `call`). */
export interface RedisLike {
  sendCommand?: (args: string[]) => Promise<unknown>;
  call?: (command: string, ...args: string[]) => Promise<unknown>;
  on?: (event: string, listener: () => void) => unknown;
  once?: (event: string, listener: () => void) => unknown;
  /** node-redis: false until connected (a client connecting in the background, ADR 0061). */
  isReady?: boolean;
}

/** How long `settled()` waits for a client still connecting before it gives up on the first rebuild. */
const FIRST_CONNECTION_WAIT_MS = 10_000;

const TOMBSTONE_SECONDS = 86_400;
/** A withheld product's tombstone: only long enough that a write racing the removal does not put it back. */
const WITHHELD_TOMBSTONE_SECONDS = 1;
/** A full Redis is tried again after this long at first, then twice as long each time, up to FULL_RETRY_MAX_MS. */
const FULL_RETRY_FIRST_MS = 60_000;
const FULL_RETRY_MAX_MS = 15 * 60_000;
/** While full, how often the memory is looked at (a read or the timer asking for a rebuild). */
const FULL_LOOK_EVERY_MS = 4_000;
const SORT_SET: Record<FeedSort, string> = { newest: 'feed', price_per_kg: 's:price_per_kg', price: 's:price' };
const MINE_MAX = 500;
/** The typo search's dictionary is read again after this long (a new product's words wait at most this). */
export const TYPO_DICTIONARY_MS = 60_000;

// A product is put only if no tombstone says it was deleted; key, feed, farmer set and the search
// sets together. KEYS: product, feed, farmer, gone, ix. ARGV: feed score, id, value, created ms,
// prefix, price per kg, its sort score, price sort score, sets (space separated), words, location words.
const PUT = `
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
local P, id = ARGV[5], ARGV[2]
redis.call('SET', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[1], id)
redis.call('ZADD', KEYS[3], ARGV[4], id)
redis.call('ZADD', P .. 'ppk', ARGV[6], id)
redis.call('ZADD', P .. 's:price_per_kg', ARGV[7], id)
redis.call('ZADD', P .. 's:price', ARGV[8], id)
local new = {}
for set in string.gmatch(ARGV[9], '%S+') do new[set] = true end
local old = redis.call('GET', KEYS[5])
if old then
  for set in string.gmatch(old, '%S+') do
    if not new[set] then redis.call('SREM', P .. set, id) end
  end
end
for set in pairs(new) do redis.call('SADD', P .. set, id) end
redis.call('SET', KEYS[5], ARGV[9])
for word in string.gmatch(ARGV[10], '%S+') do redis.call('ZADD', P .. 'dict', 0, word) end
for word in string.gmatch(ARGV[11], '%S+') do redis.call('ZADD', P .. 'ldict', 0, word) end
redis.call('INCR', P .. 'gen')
return 1`;

// KEYS: product, feed, farmer, gone, ix. ARGV: id, tombstone seconds, prefix.
const REMOVE = `
local P, id = ARGV[3], ARGV[1]
redis.call('SET', KEYS[4], '1', 'EX', ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], id)
redis.call('ZREM', KEYS[3], id)
redis.call('ZREM', P .. 'ppk', id)
redis.call('ZREM', P .. 's:price_per_kg', id)
redis.call('ZREM', P .. 's:price', id)
local old = redis.call('GET', KEYS[5])
if old then
  for set in string.gmatch(old, '%S+') do redis.call('SREM', P .. set, id) end
end
redis.call('DEL', KEYS[5])
redis.call('INCR', P .. 'gen')
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

// A searched page (ADR 0029). KEYS: ready. ARGV: prefix, sort set, how many, position score ('' for
// the first page), position id, '1' for descending, the filters (JSON), budget of membership
// tests for a walk, query hash, seconds a materialised result is kept, size at or below which the
// result is materialised without costing (-1: always walk first), cost of one membership test,
// cost of one entry copied. The plan is chosen by expected cost: a walk of the sort set from the
// position tests about want x total / smallest products against the filters (in chunks, one
// SMISMEMBER or ZMSCORE per set and chunk) until the page is full or the budget is spent;
// materialising copies the inputs that are not sets already (a price range, a union of words)
// and intersects them with the sort set (ZINTERSTORE, WEIGHTS 1 0 ...: the score is the order's)
// into a key named after the write generation, kept briefly for the next pages (reused while it
// exists), and pages through it. A spent budget falls back to materialising; a walk expected
// to spend it materialises at once. A walk's page is kept the same way (the generation, the
// query and the position name it). Returns
// { ids, scores, values, plan } (false when the copy is not ready); plan is
// [walk|materialise|cached|spent, smallest input, sort set size, expected tests, copied, tests].
const SEARCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local P = ARGV[1]
local sortKey = P .. ARGV[2]
local want = tonumber(ARGV[3])
local hasPos = ARGV[4] ~= ''
local posId = ARGV[5]
local desc = ARGV[6] == '1'
local spec = cjson.decode(ARGV[7])
local budget = tonumber(ARGV[8])
local function before(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
local groups = {}
local function expand(word, dict, pre)
  local keys = {}
  if #word >= ${MIN_PREFIX_LENGTH} then
    for _, w in ipairs(redis.call('ZRANGE', P .. dict, '[' .. word, '[' .. word .. '\\255', 'BYLEX', 'LIMIT', 0, 50)) do
      keys[#keys + 1] = P .. pre .. w
    end
  elseif redis.call('ZSCORE', P .. dict, word) then
    keys[1] = P .. pre .. word
  end
  return keys
end
-- A word that finds nothing whole or by prefix is read as its alternatives (issue 25, typos.ts): the
-- dictionary's words near it and the tubers it names. Their positions in the query are returned (fixed).
local fixed = {}
for i, w in ipairs(spec.words) do
  local keys = expand(w, 'dict', 't:')
  local alt = spec.alts and spec.alts[i]
  if #keys == 0 and alt then
    for _, a in ipairs(alt.w) do
      if redis.call('ZSCORE', P .. 'dict', a) then keys[#keys + 1] = P .. 't:' .. a end
    end
    for _, t in ipairs(alt.t) do keys[#keys + 1] = P .. 'tu:' .. t end
    if #keys > 0 then fixed[#fixed + 1] = i end
  end
  groups[#groups + 1] = keys
end
for _, w in ipairs(spec.locs) do groups[#groups + 1] = expand(w, 'ldict', 'l:') end
if #spec.tubers > 0 then
  local keys = {}
  for i, t in ipairs(spec.tubers) do keys[i] = P .. 'tu:' .. t end
  groups[#groups + 1] = keys
end
if spec.avail then groups[#groups + 1] = { P .. 'avail' } end
for _, g in ipairs(groups) do
  if #g == 0 then return { {}, {}, {}, false, fixed } end
end
local hasRange = spec.min ~= nil or spec.max ~= nil
local lo = spec.min ~= nil and tostring(spec.min) or '-inf'
local hi = spec.max ~= nil and tostring(spec.max) or '+inf'

local total = redis.call('ZCARD', sortKey)
local smallest, copies = total, 0
for _, g in ipairs(groups) do
  local n = 0
  for _, k in ipairs(g) do n = n + redis.call('SCARD', k) end
  if #g > 1 then copies = copies + n end
  if n < smallest then smallest = n end
end
if hasRange then
  local n = redis.call('ZCOUNT', P .. 'ppk', lo, hi)
  copies = copies + n
  if n < smallest then smallest = n end
end
if smallest == 0 then return { {}, {}, {}, false, fixed } end

-- The plan. A walk visits about want x total / smallest products (one membership test each for
-- the first filter); materialising copies the inputs that are not sets of their own (a range,
-- a union) and then intersects from the smallest input. Whichever is expected to cost less.
local expected = math.min(total, want * total / smallest)
local walkCost = expected * tonumber(ARGV[12])
local copyCost = (copies + smallest) * tonumber(ARGV[13])
local below = tonumber(ARGV[11])
local cache = P .. 'q:' .. (redis.call('GET', P .. 'gen') or '0') .. ':' .. ARGV[9]
-- A walk's page is kept like a materialised result (same generation, same position: same page).
local pageKey = cache .. ':w:' .. ARGV[4] .. ':' .. posId
local plan, hit
if below < 0 then plan = 'walk'
elseif redis.call('EXISTS', cache) == 1 then plan = 'cached'
elseif smallest <= below then plan = 'materialise'
else
  hit = redis.call('GET', pageKey)
  if hit then plan = 'cached'
  elseif expected > budget or copyCost < walkCost then plan = 'materialise'
  else plan = 'walk' end
end

local ops = 0
-- The positions (in list) of the products that pass every filter, as a set. One command per set
-- and chunk (SMISMEMBER, ZMSCORE); ops counts the membership tests.
local function matching(list)
  local alive = {}
  for i = 1, #list do alive[i] = i end
  for _, g in ipairs(groups) do
    local found, left = {}, alive
    for _, k in ipairs(g) do
      if #left == 0 then break end
      local ids = {}
      for j, i in ipairs(left) do ids[j] = list[i] end
      ops = ops + #ids
      local r = redis.call('SMISMEMBER', k, unpack(ids))
      local rest = {}
      for j, i in ipairs(left) do
        if r[j] == 1 then found[#found + 1] = i else rest[#rest + 1] = i end
      end
      left = rest
    end
    alive = found
    if #alive == 0 then return {} end
  end
  local set = {}
  if hasRange then
    local ids = {}
    for j, i in ipairs(alive) do ids[j] = list[i] end
    ops = ops + #ids
    local r = redis.call('ZMSCORE', P .. 'ppk', unpack(ids))
    for j, i in ipairs(alive) do
      local s = r[j] and tonumber(r[j])
      if s and not ((spec.min ~= nil and s < spec.min) or (spec.max ~= nil and s > spec.max)) then set[i] = true end
    end
  else
    for _, i in ipairs(alive) do set[i] = true end
  end
  return set
end

-- Hands visit the members after the position in order, a chunk at a time (ids only: the scores of
-- the page are asked for at the end), until it says stop. The first chunk is about the expected walk (at least the page), then 200 at a time.
local function walk(key, visit, first)
  if hasPos then
    local same = redis.call('ZRANGE', key, ARGV[4], ARGV[4], 'BYSCORE')
    local ids = {}
    if desc then
      for i = #same, 1, -1 do
        if before(same[i], posId) then ids[#ids + 1] = same[i] end
      end
    else
      for i = 1, #same do
        if before(posId, same[i]) then ids[#ids + 1] = same[i] end
      end
    end
    if #ids > 0 and visit(ids) then return end
  end
  -- By rank from the first member past the position's score (ZCOUNT is O(log n)); BYSCORE with
  -- LIMIT offset would step over every member before the offset again for each chunk.
  local rank, size = 0, first
  if hasPos then
    rank = desc and redis.call('ZCOUNT', key, ARGV[4], '+inf') or redis.call('ZCOUNT', key, '-inf', ARGV[4])
  end
  while true do
    local chunk
    if desc then
      chunk = redis.call('ZRANGE', key, rank, rank + size - 1, 'REV')
    else
      chunk = redis.call('ZRANGE', key, rank, rank + size - 1)
    end
    if #chunk == 0 then return end
    if visit(chunk) then return end
    rank = rank + size
    size = 200
  end
end

local ids = {}
if plan == 'walk' then
  local spent = false
  walk(sortKey, function(list)
    local ok = matching(list)
    for i = 1, #list do
      if ok[i] then
        ids[#ids + 1] = list[i]
        if #ids >= want then return true end
      end
    end
    if ops > budget then spent = true return true end
    return false
  end, math.max(want, math.min(200, math.ceil(expected * 1.25))))
  if spent then plan = 'spent'
  elseif below >= 0 then redis.call('SET', pageKey, table.concat(ids, ' '), 'EX', ARGV[10]) end
end
if hit then
  for id in string.gmatch(hit, '%S+') do ids[#ids + 1] = id end
elseif plan ~= 'walk' then
  ids = {}
  if plan ~= 'cached' and redis.call('EXISTS', cache) == 0 then
    local inputs, weights, temps = { sortKey }, { 1 }, {}
    for gi, g in ipairs(groups) do
      if #g == 1 then
        inputs[#inputs + 1] = g[1]
      else
        local tmp = cache .. ':u' .. gi
        redis.call('SUNIONSTORE', tmp, unpack(g))
        temps[#temps + 1] = tmp
        inputs[#inputs + 1] = tmp
      end
      weights[#weights + 1] = 0
    end
    if hasRange then
      local tmp = cache .. ':r'
      redis.call('ZRANGESTORE', tmp, P .. 'ppk', lo, hi, 'BYSCORE')
      temps[#temps + 1] = tmp
      inputs[#inputs + 1] = tmp
      weights[#weights + 1] = 0
    end
    local args = { cache, #inputs }
    for _, k in ipairs(inputs) do args[#args + 1] = k end
    args[#args + 1] = 'WEIGHTS'
    for _, w in ipairs(weights) do args[#args + 1] = w end
    redis.call('ZINTERSTORE', unpack(args))
    if #temps > 0 then redis.call('DEL', unpack(temps)) end
    redis.call('EXPIRE', cache, ARGV[10])
  end
  walk(cache, function(list)
    for i = 1, #list do
      ids[#ids + 1] = list[i]
      if #ids >= want then return true end
    end
    return false
  end, want)
end
local why = { plan, smallest, total, math.floor(expected), copies, ops }
if #ids == 0 then return { {}, {}, {}, why, fixed } end
-- The order's scores of the page (a materialised result has the same: its other weights are 0).
local scores = redis.call('ZMSCORE', sortKey, unpack(ids))
local keys = {}
for i, id in ipairs(ids) do keys[i] = P .. 'p:' .. id end
return { ids, scores, redis.call('MGET', unpack(keys)), why, fixed }`;

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

/** The set of one tuber type's products (a key part without spaces). */
export const tuberSet = (tuber: string) => `tu:${tuber.replace(/\s+/g, '_')}`;

/** Tuning of searched pages (ADR 0029). */
export const SEARCH_TUNING = {
  /** Membership tests a walk may spend before the result is materialised instead. */
  budget: 3_000,
  /** Seconds a materialised result is kept (any write makes it stale at once). */
  cacheSeconds: 30,
  /**
   * Relative cost of one membership test in a walk (SMISMEMBER/ZMSCORE per chunk, with the walk's
   * ZRANGE) and of one entry a materialisation copies (ZRANGESTORE/SUNIONSTORE, then ZINTERSTORE
   * inserting the smallest input's matches). Measured on the P10 data (docs/performance.md, ADR 0029).
   */
  testCost: 1,
  copyCost: 1.5,
  /** Smallest inputs at most this big are materialised without costing; -1 always walks first (tests). */
  materialiseBelow: 0,
};

/** How the read model answered a searched page (for tests and measurements). */
export interface SearchPlanChosen {
  /** walk: the order tested product by product; materialise: the intersection stored; cached: a stored one reused; spent: a walk over budget, then materialised. */
  kind: 'walk' | 'materialise' | 'cached' | 'spent';
  /** Products in the smallest input, and in the order. */
  smallest: number;
  total: number;
  /** Membership tests a walk was expected to need, entries materialising would copy besides the smallest input, tests done. */
  expectedTests: number;
  copied: number;
  tests: number;
}

/** The reads the copy answers; each falls back to MongoDB when it cannot. */
export type ReadKind = 'feed' | 'search' | 'product' | 'mine';

export interface ReadModelOptions {
  /** Key prefix inside the catalog's own `catalog:` keys. */
  prefix: string;
  log: FastifyBaseLogger;
  /** A read waiting longer than this is served from MongoDB instead. */
  timeoutMs?: number;
  /** Off: every read goes to MongoDB and nothing is written (benchmarks of the database path). */
  enabled?: boolean;
  /** Told of each read served from MongoDB because the copy could not answer (the metric). */
  onDatabaseRead?: (read: ReadKind) => void;
}

/** What the copy's state is, for the metrics. */
export interface ReadModelHealth {
  /** Reads go to MongoDB: the copy is not trusted (rebuilding, its Redis away or full). */
  degraded: boolean;
  /** Its Redis refused a write for memory since the last complete rebuild. */
  full: boolean;
}

/** Redis's refusal of a write at its memory budget (`maxmemory` with `noeviction`), also from inside a script. */
export const isOutOfMemory = (err: unknown): boolean => err instanceof Error && /\bOOM command not allowed\b/.test(err.message);

export class ReadModel {
  readonly #redis: RedisLike;
  readonly #Product: ProductModel;
  readonly #log: FastifyBaseLogger;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #enabled: boolean;
  readonly #sha = new Map<string, string>();
  readonly #onDatabaseRead: (read: ReadKind) => void;
  /** A write could not be applied: the copy is rebuilt once Redis answers. */
  #dirty = false;
  /** The words of every product, for the typo search (typos.ts), and when they were read. */
  #typos: { dictionary: TypoDictionary; at: number } | undefined;
  #typosLoading: Promise<void> | undefined;
  /** The last read went to MongoDB (or a write failed since). */
  #degraded = false;
  /** Since when its Redis is full, its budget then, and when to try a rebuild anyway. */
  #full: { since: number; maxBytes: number | undefined; retryAt: number; attempts: number; lookedAt: number } | undefined;
  #building: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Settles once the client first connected (or gave up waiting): a rebuild cannot start before. */
  #connected: Promise<void> = Promise.resolve();

  constructor(redis: RedisLike, Product: ProductModel, options: ReadModelOptions) {
    this.#redis = redis;
    this.#Product = Product;
    this.#log = options.log;
    this.#prefix = options.prefix;
    this.#timeoutMs = options.timeoutMs ?? 500;
    this.#enabled = options.enabled ?? true;
    this.#onDatabaseRead = options.onDatabaseRead ?? (() => undefined);
  }

  #key = {
    ready: () => `${this.#prefix}ready`,
    feed: () => `${this.#prefix}feed`,
    product: (id: string) => `${this.#prefix}p:${id}`,
    farmer: (id: string) => `${this.#prefix}f:${id}`,
    gone: (id: string) => `${this.#prefix}gone:${id}`,
    index: (id: string) => `${this.#prefix}ix:${id}`,
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
  #unavailable(read: ReadKind, err?: unknown): undefined {
    if (err) this.#log.debug({ err }, 'read model unavailable; serving from MongoDB');
    if (!this.#degraded && this.#enabled) {
      this.#degraded = true;
      this.#log.warn(
        { err, full: this.#full !== undefined },
        'read model cannot answer; reads are served from MongoDB until it is rebuilt',
      );
    }
    this.#onDatabaseRead(read);
    // A searched page caches its result in Redis: a full one refuses that too (the timer rebuilds later).
    if (isOutOfMemory(err)) void this.#noteFull(err);
    else this.ensure();
    return undefined;
  }

  /** A read the copy answered. */
  #served<T>(answer: T): T {
    if (this.#degraded) {
      this.#degraded = false;
      this.#log.info('read model answers again; reads are served from Redis');
    }
    return answer;
  }

  /** Whether reads go to MongoDB, and whether its Redis is full. */
  health(): ReadModelHealth {
    return { degraded: this.#enabled && (this.#degraded || this.#dirty), full: this.#full !== undefined };
  }

  /** Memory its Redis uses and may use (INFO memory; max 0: no budget). */
  async memory(): Promise<{ usedBytes: number; maxBytes: number }> {
    const info = String(await this.#send(['INFO', 'memory']));
    const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
    return { usedBytes: field('used_memory'), maxBytes: field('maxmemory') };
  }

  /**
   * Its Redis refused a write for memory: the copy cannot be trusted (reads go to MongoDB), and the
   * rebuild waits for room. Said once in the log (at warn) each time it becomes full. Only a failed
   * rebuild (`rebuildFailed`) moves the back-off on; a write or a searched page refused while it is
   * known to be full costs nothing more.
   */
  async #noteFull(err: unknown, rebuildFailed = false): Promise<void> {
    this.#dirty = true;
    this.#degraded = true;
    const was = this.#full;
    if (was && !rebuildFailed) return;
    const attempts = (was?.attempts ?? 0) + 1;
    const waitMs = Math.min(FULL_RETRY_MAX_MS, FULL_RETRY_FIRST_MS * 2 ** (attempts - 1));
    const now = Date.now();
    const full = { since: was?.since ?? now, maxBytes: was?.maxBytes, retryAt: now + waitMs, attempts, lookedAt: now };
    this.#full = full; // before the await: a second refusal meanwhile finds it known
    const memory = await this.memory().catch(() => undefined);
    if (memory && Number.isFinite(memory.maxBytes)) full.maxBytes = memory.maxBytes;
    if (!was) {
      this.#log.warn(
        { err, usedBytes: memory?.usedBytes, maxBytes: memory?.maxBytes, retryInMs: waitMs },
        'read model: its Redis is full (maxmemory); reads are served from MongoDB, and the copy is rebuilt once there is room',
      );
    } else {
      this.#log.debug({ err, attempts, retryInMs: waitMs }, 'read model: its Redis is still full');
    }
  }

  /**
   * While full: is there room for a rebuild? Yes when its budget changed (raised by an operator),
   * when less than half of it is used (memory freed, a flush), or when the back-off has passed.
   */
  async #roomAgain(): Promise<boolean> {
    const full = this.#full;
    if (!full) return true;
    full.lookedAt = Date.now();
    if (Date.now() >= full.retryAt) return true;
    const { usedBytes, maxBytes } = await this.memory();
    if (maxBytes === 0 || (full.maxBytes !== undefined && maxBytes !== full.maxBytes)) return true;
    return usedBytes < maxBytes / 2;
  }

  // ---- reads: undefined means "ask MongoDB" ----

  /** A feed page: the products' API JSON, in order, and the position of the last one. */
  async feedPage(limit: number, position?: FeedPosition): Promise<{ items: string[]; last?: FeedPosition; more: boolean } | undefined> {
    let values: unknown;
    try {
      values = await this.#script(
        PAGE,
        [this.#key.ready(), this.#key.feed()],
        [
          String(limit + 1),
          position
            ? String(
                scoreOf({ status: position.soldOut ? 'sold_out' : 'available', created_at: position.createdAt, price_kobo: 0 }, 'newest'),
              )
            : '',
          position?.productId ?? '',
          `${this.#prefix}p:`,
        ],
      );
    } catch (err) {
      return this.#unavailable('feed', err);
    }
    if (!Array.isArray(values)) return this.#unavailable('feed');
    const stored = (values as (string | null)[]).filter((v): v is string => typeof v === 'string').map(parse);
    const page = stored.slice(0, limit);
    const last = page.at(-1);
    const lastProduct = last && (JSON.parse(last.json) as { product_id: string; status?: string });
    return this.#served({
      items: page.map((s) => s.json),
      more: stored.length > limit,
      last: last &&
        lastProduct && {
          createdAt: new Date(last.createdMs),
          productId: lastProduct.product_id,
          bucket: last.bucket,
          soldOut: lastProduct.status === 'sold_out',
        },
    });
  }

  /**
   * The dictionary of the typo search: every word of every product, from the copy's word set (or, with the
   * copy away, from the database), read again at most every TYPO_DICTIONARY_MS. A stale one is used while
   * the next is read; the first read is waited for, at most the read timeout.
   */
  async typoDictionary(): Promise<TypoDictionary | undefined> {
    if (this.#typos && Date.now() - this.#typos.at < TYPO_DICTIONARY_MS) return this.#typos.dictionary;
    this.#typosLoading ??= this.#loadTypos().finally(() => {
      this.#typosLoading = undefined;
    });
    if (!this.#typos) await this.#typosLoading;
    return this.#typos?.dictionary;
  }

  async #loadTypos(): Promise<void> {
    let words: unknown;
    try {
      if (this.#enabled) words = await this.#send(['ZRANGE', `${this.#prefix}dict`, '0', '-1']);
    } catch (err) {
      this.#log.debug({ err }, 'typo dictionary: the read model did not answer; reading the database');
    }
    try {
      if (!Array.isArray(words) || words.length === 0) words = await this.#Product.distinct('search_terms', { deleting: { $ne: true } });
    } catch (err) {
      this.#log.warn({ err }, 'typo dictionary could not be read; searches are not corrected until it can');
      return;
    }
    if (Array.isArray(words)) this.#typos = { dictionary: new TypoDictionary(words.map(String)), at: Date.now() };
  }

  /** A searched page: the products' API JSON, in order, and the position of the last one. */
  async searchPage(
    plan: SearchPlan,
    limit: number,
    position?: SearchPosition,
  ): Promise<{ items: string[]; last?: SearchPosition; more: boolean; corrected: number[]; plan?: SearchPlanChosen } | undefined> {
    const spec = {
      words: plan.words,
      // Alternatives of words that may match nothing (typos.ts); false where a word has none.
      alts: (plan.alternatives ?? plan.words.map(() => null)).map((alt) =>
        alt ? { w: alt.words, t: alt.tubers.map((t) => tuberSet(t).slice(3)) } : false,
      ),
      locs: plan.locationWords,
      tubers: plan.tubers.map((t) => tuberSet(t).slice(3)),
      avail: plan.available,
      ...(plan.minPerKgKobo !== undefined ? { min: plan.minPerKgKobo } : {}),
      ...(plan.maxPerKgKobo !== undefined ? { max: plan.maxPerKgKobo } : {}),
    };
    let reply: unknown;
    try {
      reply = await this.#script(
        SEARCH,
        [this.#key.ready()],
        [
          this.#prefix,
          SORT_SET[plan.sort],
          String(limit + 1),
          position ? String(position.score) : '',
          position?.productId ?? '',
          plan.sort === 'newest' ? '1' : '0',
          JSON.stringify(spec),
          String(SEARCH_TUNING.budget),
          plan.hash,
          String(SEARCH_TUNING.cacheSeconds),
          String(SEARCH_TUNING.materialiseBelow),
          String(SEARCH_TUNING.testCost),
          String(SEARCH_TUNING.copyCost),
        ],
      );
    } catch (err) {
      return this.#unavailable('search', err);
    }
    if (!Array.isArray(reply)) return this.#unavailable('search');
    const [ids, scores, values, why, fixed] = reply as [
      string[],
      string[],
      (string | null)[],
      (string | number)[] | false | undefined,
      number[] | undefined,
    ];
    const found: { id: string; score: number; json: string }[] = [];
    ids.forEach((id, i) => {
      const value = values[i];
      if (typeof value === 'string') found.push({ id, score: Number(scores[i]), json: parse(value).json });
    });
    const page = found.slice(0, limit);
    const last = page.at(-1);
    return this.#served({
      items: page.map((f) => f.json),
      more: ids.length > limit,
      last: last && { score: last.score, productId: last.id },
      // 1-based positions (Lua) of the query words read as their alternatives.
      corrected: Array.isArray(fixed) ? fixed.map((i) => Number(i) - 1) : [],
      plan: why ? {
        kind: why[0] as SearchPlanChosen['kind'],
        smallest: Number(why[1]),
        total: Number(why[2]),
        expectedTests: Number(why[3]),
        copied: Number(why[4]),
        tests: Number(why[5]),
      } : undefined,
    });
  }

  /** One product's API JSON, null when there is no such product. */
  async product(productId: string): Promise<string | null | undefined> {
    let reply: unknown;
    try {
      reply = await this.#script(GET, [this.#key.ready(), this.#key.product(productId)], []);
    } catch (err) {
      return this.#unavailable('product', err);
    }
    if (!Array.isArray(reply)) return this.#unavailable('product');
    return this.#served(typeof reply[0] === 'string' ? parse(reply[0]).json : null);
  }

  /** A farmer's products, newest first (at most 500), as API JSON. */
  async farmerProducts(farmerId: string): Promise<string[] | undefined> {
    let values: unknown;
    try {
      values = await this.#script(PAGE, [this.#key.ready(), this.#key.farmer(farmerId)], [String(MINE_MAX), '', '', `${this.#prefix}p:`]);
    } catch (err) {
      return this.#unavailable('mine', err);
    }
    if (!Array.isArray(values)) return this.#unavailable('mine');
    return this.#served((values as (string | null)[]).filter((v): v is string => typeof v === 'string').map((v) => parse(v).json));
  }

  // ---- writes: after MongoDB committed; a failure marks the copy for a rebuild ----

  async #put(doc: ProductDocument): Promise<void> {
    if (doc.deleting) return this.#remove(doc.product_id, doc.farmer_id);
    // Withheld by moderation (issue 26): out of every copy, with a tombstone of a second only, so that showing
    // it again is not refused for a day; reads of it go to MongoDB, which leaves it out (and the owner's list
    // is read there while they have one).
    if (doc.withheld) return this.#remove(doc.product_id, doc.farmer_id, WITHHELD_TOMBSTONE_SECONDS);
    const terms = doc.search_terms?.length
      ? { search_terms: doc.search_terms, location_terms: doc.location_terms ?? [] }
      : searchTermsOf(doc);
    const sets = [
      ...terms.search_terms.map((w) => `t:${w}`),
      ...terms.location_terms.map((w) => `l:${w}`),
      tuberSet(doc.tuber_type),
      ...(doc.status === 'available' ? ['avail'] : []),
    ];
    const api = toApiProduct(doc);
    const order = {
      status: api.status,
      created_at: doc.created_at,
      price_kobo: doc.price_kobo,
      price_per_kg_kobo: Math.round(api.price_per_kg * 100),
    };
    await this.#script(
      PUT,
      [
        this.#key.product(doc.product_id),
        this.#key.feed(),
        this.#key.farmer(doc.farmer_id),
        this.#key.gone(doc.product_id),
        this.#key.index(doc.product_id),
      ],
      [
        String(scoreOf(order, 'newest')),
        doc.product_id,
        storedValue(doc),
        String(doc.created_at.getTime()),
        this.#prefix,
        String(order.price_per_kg_kobo),
        String(scoreOf(order, 'price_per_kg')),
        String(scoreOf(order, 'price')),
        sets.join(' '),
        terms.search_terms.join(' '),
        terms.location_terms.join(' '),
      ],
    );
  }

  async #remove(productId: string, farmerId: string, tombstoneSeconds = TOMBSTONE_SECONDS): Promise<void> {
    await this.#script(
      REMOVE,
      [this.#key.product(productId), this.#key.feed(), this.#key.farmer(farmerId), this.#key.gone(productId), this.#key.index(productId)],
      [productId, String(tombstoneSeconds), this.#prefix],
    );
  }

  /**
   * A write to the copy. A failure marks it for a rebuild (reads go to MongoDB meanwhile) and, with
   * `rethrow`, is passed on so that an event is handled again later; but not a refusal for memory:
   * handling the event again would only be refused again and hold up the events behind it, while the
   * rebuild reads every product from MongoDB anyway.
   */
  async #guard(what: string, write: () => Promise<void>, rethrow: boolean): Promise<void> {
    if (!this.#enabled) return;
    try {
      await write();
    } catch (err) {
      this.#dirty = true;
      this.#degraded = true;
      const full = isOutOfMemory(err);
      if (full) await this.#noteFull(err);
      else this.#log.warn({ err }, `read model: ${what} not applied; it will be rebuilt from MongoDB`);
      // DEL is taken even by a full Redis.
      await this.#send(['DEL', this.#key.ready()]).catch(() => undefined);
      if (rethrow && !full) throw err;
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
    // A client still connecting: its 'ready' asks again.
    if (this.#building || !this.#enabled || this.#redis.isReady === false) return;
    // While its Redis is full, the memory is looked at now and then, not on every read.
    if (this.#full && Date.now() - this.#full.lookedAt < FULL_LOOK_EVERY_MS) return;
    this.#building = this.#check()
      .catch(async (err: unknown) => {
        if (isOutOfMemory(err)) await this.#noteFull(err, true);
        else this.#log.warn({ err }, 'read model: rebuild failed; reads stay on MongoDB and it is tried again');
      })
      .finally(() => {
        this.#building = undefined;
      });
  }

  /** Resolves once any rebuild this instance started is over (tests, benchmarks). */
  async settled(): Promise<void> {
    await this.#connected;
    while (this.#building) await this.#building;
  }

  async #check(): Promise<void> {
    // Before the marker is looked at: a full instance must not take away one another replica set.
    if (this.#full && !(await this.#roomAgain())) return;
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
    try {
      return await this.#copyAll();
    } catch (err) {
      this.#dirty = true; // what was copied before the failure cannot be trusted
      throw err;
    }
  }

  async #copyAll(): Promise<number> {
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
    if (this.#full) this.#log.info({ fullForMs: Date.now() - this.#full.since }, 'read model: its Redis has room again');
    this.#full = undefined;
    this.#degraded = false;
    return seen.size;
  }

  /** Checks now and every `intervalMs` (and when the client reconnects) that the copy can be trusted. */
  start(intervalMs = 5_000): void {
    this.ensure();
    this.#timer = setInterval(() => this.ensure(), intervalMs);
    this.#timer.unref();
    this.#redis.on?.('ready', () => this.ensure());
    // After the listener above, so that a rebuild is under way once this settles.
    if (this.#redis.isReady === false && this.#redis.once) {
      this.#connected = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, FIRST_CONNECTION_WAIT_MS);
        timer.unref();
        this.#redis.once!('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.settled();
  }
}
