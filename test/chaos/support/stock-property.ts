// The stock promise of issue 24 as a property, run against the real stack through the gateway:
// fast-check picks a product's stock, the requests buyers send for it and bursts of concurrent
// accepts, declines, fulfilments and cancels; every burst is followed by a check, and every
// interleaving ends with each request driven to a final state and checked once more.
//   The invariant, at every check: the quantities the farmer holds promised (requests accepted or
//   fulfilled; an accepted one not yet fulfilled or cancelled among them) never exceed the stock
//   the product was posted with; a request in a final state stays in it; at the end each request is
//   in exactly one final state, its history a path of the state machine. "At any moment" is also
//   checked between the checks: the requests' histories, merged in time, never hold more than the
//   stock (a double promise undone within one burst shows there).
// Many interleavings run at once ("lanes"), each its own fast-check run with its own seed, each
// interleaving on its own new product of a farmer no other lane uses meanwhile: they share nothing
// the invariant counts. People are pooled and signed in once (tokens renewed by refresh); new ones
// are made when every pooled one has used the send or upload budget of the per-person limits
// (ADR 0057 and the services' own: 60 sends, 60 uploads, 60 product posts in 10 minutes).
// Used by test/security/stock-promises.test.ts (one replica) and test/chaos/r9-… (two, one killed).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { actors, removeActors, Recorder, uploadPhoto, type Actor, type Answer } from './traffic.js';

// ---- the plan fast-check draws ----
export type StepKind = 'accept' | 'decline' | 'fulfil' | 'farmer-cancel' | 'buyer-cancel';
export interface Step {
  kind: StepKind;
  request: number;
}
export interface Ask {
  buyer: number;
  quantity: number;
}
export interface Plan {
  stock: number;
  asks: Ask[];
  bursts: Step[][];
  /** How each request still open at the end is ended: sent → decline (true) or buyer cancel; accepted → fulfil (true) or cancel. */
  endings: boolean[];
}

const stepArbitrary = (requests: number): fc.Arbitrary<Step> =>
  fc.record({
    kind: fc.constantFrom<StepKind>('accept', 'accept', 'accept', 'decline', 'fulfil', 'farmer-cancel', 'buyer-cancel'),
    request: fc.nat({ max: requests - 1 }),
  });

/** Stock 1–3, 3–8 asks of 1–2 (at most the stock) from two buyers, 2–5 bursts of 1–8 steps. */
export const planArbitrary: fc.Arbitrary<Plan> = fc
  .record({
    stock: fc.integer({ min: 1, max: 3 }),
    asks: fc.array(fc.record({ buyer: fc.nat({ max: 1 }), quantity: fc.integer({ min: 1, max: 2 }) }), { minLength: 3, maxLength: 8 }),
  })
  .chain((base) =>
    fc.record({
      stock: fc.constant(base.stock),
      asks: fc.constant(base.asks.map((ask) => ({ ...ask, quantity: Math.min(ask.quantity, base.stock) }))),
      bursts: fc.array(fc.array(stepArbitrary(base.asks.length), { minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 5 }),
      endings: fc.array(fc.boolean(), { minLength: base.asks.length, maxLength: base.asks.length }),
    }),
  );

// ---- what the checks read ----
const OPEN = new Set(['sent', 'accepted']);
const FINAL = new Set(['declined', 'cancelled', 'fulfilled']);
const HOLDING = new Set(['accepted', 'fulfilled']);
/** The state machine's edges as the spec draws them (ADR 0031), written out here rather than imported from the service under test. */
const EDGES = new Set(['sent>accepted', 'sent>declined', 'sent>cancelled', 'accepted>fulfilled', 'accepted>cancelled']);

export interface RequestView {
  id: string;
  status: string;
  /** What the request holds once accepted: the accepted quantity (the asked one when not lowered). */
  quantity: number;
  history: { status: string; at: string }[];
}

/** An invariant break: more promised than the stock. */
export class StockBreak extends Error {}

export interface Sent {
  id: string;
  buyer: Actor;
  quantity: number;
}

/** One call the property made, for the excuse of a fault in hand (chaos) and the counts. */
export interface CallRecord {
  route: string;
  status: number;
  sentAt: number;
  answeredAt: number;
  message: string;
}

// ---- per-person limits, as budgets kept on this side ----
const WINDOW_MS = 600_000;
/** Limits count at the server, a moment after the attempt is recorded here, and with a fixed window: stay well inside. */
const MARGIN_MS = 20_000;
const LIMITS = { sends: 60, uploads: 60, posts: 60 } as const;
const HEADROOM = 4;
type LimitName = keyof typeof LIMITS;

class Person {
  readonly #spent = new Map<LimitName, number[]>();
  /** All spent since the person was made, by limit: a retired person is taken no more (People's `retireAfter`). */
  readonly lifetime = new Map<LimitName, number>();
  busy = false;
  #renewing: Promise<void> | undefined;
  constructor(readonly actor: Actor) {}

  room(name: LimitName, now = Date.now()): number {
    const times = (this.#spent.get(name) ?? []).filter((t) => t > now - WINDOW_MS - MARGIN_MS);
    this.#spent.set(name, times);
    return LIMITS[name] - HEADROOM - times.length;
  }

  spend(name: LimitName, n = 1): void {
    const times = this.#spent.get(name) ?? [];
    for (let i = 0; i < n; i++) times.push(Date.now());
    this.#spent.set(name, times);
    this.lifetime.set(name, (this.lifetime.get(name) ?? 0) + n);
  }

  /** Renews the access token ahead of its expiry (5 minutes), once however many calls wait for it. */
  async fresh(): Promise<void> {
    const exp = Number(JSON.parse(Buffer.from(this.actor.token.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}').exp ?? 0);
    if (exp * 1000 - Date.now() > 60_000) return;
    this.#renewing ??= this.actor.renew().finally(() => (this.#renewing = undefined));
    await this.#renewing;
  }
}

/** People of one role, made as needed: `take` answers one with room for `needs` (and marks it busy when `exclusive`). */
class People {
  readonly all: Person[] = [];
  #making = 0;
  constructor(
    readonly role: 'buyer' | 'farmer',
    readonly nextAddress: () => number,
    readonly makeAtOnce = 3,
    /**
     * A person who has spent this much in all is retired (a new one is made). A farmer's every list read
     * and stock read grows with the requests they ever received; on the local FerretDB each such read
     * decodes all of them, and a 10 000-interleaving run fell from 2.9 to 1.2 interleavings a second as 71
     * farmers each gathered about 240 requests. Real farmers have fewer, and MongoDB reads them by index.
     */
    readonly retireAfter: Partial<Record<LimitName, number>> = {},
  ) {}

  async make(): Promise<Person> {
    this.#making++;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const [actor] = await actors(this.role, 1, this.nextAddress(), this.role === 'farmer' ? { businessName: 'Stock Farms' } : {});
          const person = new Person(actor!);
          this.all.push(person);
          return person;
        } catch (err) {
          // Sign-in forms are paced per address by the gateway; Keycloak may be busy: a person is worth a wait.
          if (attempt >= 8) throw err;
          await sleep(2_000 * attempt);
        }
      }
    } finally {
      this.#making--;
    }
  }

  async take(needs: Partial<Record<LimitName, number>>, options: { exclusive: boolean; not?: Person[] }): Promise<Person> {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const now = Date.now();
      const fits = (p: Person) =>
        !(options.exclusive && p.busy) &&
        !options.not?.includes(p) &&
        Object.entries(this.retireAfter).every(([name, cap]) => (p.lifetime.get(name as LimitName) ?? 0) < (cap ?? Infinity)) &&
        Object.entries(needs).every(([name, n]) => p.room(name as LimitName, now) >= (n ?? 0));
      // The one with most room left, so the budgets wear evenly.
      const found = this.all
        .filter(fits)
        .sort((a, b) => b.room(Object.keys(needs)[0] as LimitName, now) - a.room(Object.keys(needs)[0] as LimitName, now))[0];
      if (found) {
        if (options.exclusive) found.busy = true;
        for (const [name, n] of Object.entries(needs)) found.spend(name as LimitName, n ?? 0);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no ${this.role} with room for ${JSON.stringify(needs)} within 10 minutes`);
      if (this.#making < this.makeAtOnce) await this.make().catch(() => sleep(1_000));
      else await sleep(200);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const preferredDate = () => new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString().slice(0, 10);
const messageOf = (answer: Answer) =>
  typeof answer.body === 'object' && answer.body ? String((answer.body as { message?: unknown }).message ?? '') : String(answer.body ?? '');

export interface StockRunOptions {
  runs: number;
  /** Interleavings at once. */
  lanes: number;
  /** Lane i runs with seed `seed + i` (fast-check's), so a run can be repeated. */
  seed: number;
  /** A 5xx or lost answer that a fault in hand explains (chaos): counted, not held against the run. */
  excused?: (call: CallRecord) => boolean;
  /** After each interleaving (first runs, not shrinking), with the count so far. */
  onInterleaving?: (done: number) => void;
  /** A progress line this often (0: none). */
  progressEveryMs?: number;
  /** No interleaving starts after this time (ms since the epoch): a run bounded by the time it may hold the machine. */
  stopAt?: number;
  /** Shrinking a failure, at most this many re-runs or this long (a race may not repeat). */
  shrinkRuns?: number;
  shrinkMs?: number;
}

export interface LaneFailure {
  lane: number;
  seed: number;
  /** fast-check's path of the shrunk counterexample, to replay it with `seed` and `path`. */
  path: string;
  counterexample: string;
  error: string;
  isBreak: boolean;
}

export interface StockRunResult {
  /** Interleavings run to the end (first runs; shrinking re-runs are counted apart). */
  interleavings: number;
  passed: number;
  /** First runs that found more promised than the stock. */
  breaks: number;
  /** First runs that failed otherwise (a 5xx, an illegal state or history, a request left open). */
  otherFailures: number;
  failures: LaneFailure[];
  shrinkRuns: number;
  /** Invariant checks made: one after each burst, one at the end, one over the merged histories. */
  checks: number;
  steps: number;
  sends: number;
  excused: CallRecord[];
  seconds: number;
  people: { farmers: number; buyers: number };
  answers: Record<string, Record<string, number>>;
  phases: Record<string, number>;
}

/** The stock property's market: pooled people, their products and requests, the property itself. */
export class StockMarket {
  readonly recorder = new Recorder();
  readonly farmers: People;
  readonly buyers: People;
  #address: number;
  #excused?: (call: CallRecord) => boolean;
  readonly excusedCalls: CallRecord[] = [];
  readonly answers: Record<string, Record<string, number>> = {};
  checks = 0;
  steps = 0;
  sends = 0;
  /** Milliseconds spent in each part of the interleavings, summed over them (where the time goes). */
  readonly phases: Record<string, number> = {};

  async #timed<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.phases[phase] = (this.phases[phase] ?? 0) + Date.now() - started;
    }
  }

  /** `firstAddress`: the first client address (traffic.ts clientAddress) of this market's people. */
  constructor(firstAddress: number) {
    this.#address = firstAddress;
    const next = () => this.#address++;
    // Farmers retire after 30 products (People's retireAfter says why); buyers' reads do not grow with their requests.
    this.farmers = new People('farmer', next, 3, { posts: 30 });
    this.buyers = new People('buyer', next);
  }

  /** Makes `farmers` farmers and `buyers` buyers ahead, a few at a time. */
  async prepare(farmers: number, buyers: number): Promise<void> {
    const wanted = [...Array.from({ length: farmers }, () => this.farmers), ...Array.from({ length: buyers }, () => this.buyers)];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < wanted.length) await wanted[next++]!.make();
      }),
    );
  }

  async dispose(): Promise<void> {
    await removeActors([...this.farmers.all, ...this.buyers.all].map((p) => p.actor)).catch(() => undefined);
  }

  /** One call as `person`: the token kept fresh, a 429 waited out as Retry-After says. */
  async call(person: Person, method: string, path: string, json?: unknown, route?: string): Promise<CallRecord & { body: any }> {
    for (let attempt = 1; ; attempt++) {
      await person.fresh();
      const sentAt = Date.now();
      const answer = await person.actor.call(method, path, { json, recorder: this.recorder, ...(route ? { route } : {}) });
      const record = {
        route: route ?? `${method} ${path}`,
        status: answer.status,
        sentAt,
        answeredAt: Date.now(),
        message: messageOf(answer),
      };
      const kind = route ?? method;
      this.answers[kind] ??= {};
      this.answers[kind][String(answer.status)] = (this.answers[kind][String(answer.status)] ?? 0) + 1;
      if (answer.status === 429 && attempt < 10) {
        await sleep(Math.min(Number(answer.headers['retry-after']) || 1, 65) * 1000 + 250);
        continue;
      }
      return { ...record, body: answer.body };
    }
  }

  /** A 5xx or no answer, unless a fault in hand explains it (then counted apart). */
  #serverFailure(call: CallRecord): boolean {
    if (call.status !== 0 && call.status < 500) return false;
    if (this.#excused?.(call)) {
      this.excusedCalls.push(call);
      return false;
    }
    return true;
  }

  /** A new product of `stock` heaps, with two fresh photos, posted by `farmer`. */
  async product(farmer: Person, stock: number): Promise<string> {
    const images = await Promise.all([uploadPhoto(farmer.actor, this.recorder), uploadPhoto(farmer.actor, this.recorder)]);
    const body = {
      product_name: 'Last heaps of yam',
      description: 'Freshly harvested white yam tubers, sorted this morning',
      price: 1500,
      unit: 'heap',
      unit_weight_kg: 5,
      quantity: stock,
      tuber_type: 'yam',
      image_ids: images,
      cultural: 'Central to the New Yam festival',
    };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const posted = await this.call(farmer, 'POST', '/api/catalog/products', body, 'POST /api/catalog/products');
      if (posted.status === 201) return posted.body.product_id as string;
      // A new farmer's profile, and the photos, reach the catalog by event a moment after they are made (the
      // catalog waits 3 s for photos, then answers 400 "Use photos you uploaded yourself").
      const notYet =
        (posted.status === 409 && /profile/i.test(posted.message)) ||
        (posted.status === 400 && /photos you uploaded/i.test(posted.message)) ||
        posted.status === 503 ||
        this.#excused?.(posted);
      if (!notYet || Date.now() > deadline) throw new Error(`post a product: ${posted.status} ${posted.message}`);
      farmer.spend('posts');
      await sleep(300);
    }
  }

  /** One request for `quantity` heaps, sent by `buyer`; waits while the orders service has not heard of the product yet. */
  async send(buyer: Person, farmer: Person, productId: string, quantity: number): Promise<Sent> {
    const id = randomUUID();
    const body = {
      request_id: id,
      farmer_id: farmer.actor.id,
      lines: [{ product_id: productId, quantity, price: 1500, unit: 'heap' }],
      fulfilment: 'pickup',
      preferred_date: preferredDate(),
      phone: '08031234567',
    };
    const deadline = Date.now() + 60_000;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) buyer.spend('sends');
      const answer = await this.call(buyer, 'POST', '/api/orders/requests', body, 'POST /api/orders/requests');
      if (answer.status === 201 || answer.status === 200) {
        this.sends++;
        return { id, buyer: buyer.actor, quantity };
      }
      const unknownYet = answer.status === 404 || (answer.status === 409 && answer.body?.problems?.[0]?.problem === 'unavailable');
      // 503: "busy for a moment, send again" (a lock), or a fault in hand: the request id makes a second send safe.
      const again = unknownYet || answer.status === 503 || (answer.status >= 500 && this.#excused?.(answer)) || answer.status === 0;
      if (!again || Date.now() > deadline) throw new Error(`send: ${answer.status} ${answer.message}`);
      await sleep(unknownYet ? 150 : 500);
    }
  }

  /** Every request as the farmer sees it now: one read of their newest requests (no other lane uses this farmer meanwhile). */
  async snapshot(farmer: Person, sent: readonly Sent[]): Promise<RequestView[]> {
    const list = await this.call(farmer, 'GET', '/api/orders/requests?limit=50', undefined, 'GET /api/orders/requests');
    if (this.#serverFailure(list)) throw new Error(`read the requests: ${list.status} ${list.message}`);
    const items = new Map<string, any>(list.status === 200 ? (list.body.items as any[]).map((item) => [item.request_id, item]) : []);
    return Promise.all(
      sent.map(async ({ id }) => {
        let item = items.get(id);
        for (let attempt = 1; !item; attempt++) {
          const one = await this.call(farmer, 'GET', `/api/orders/requests/${id}`, undefined, 'GET /api/orders/requests/:id');
          if (one.status === 200) item = one.body;
          else if (this.#serverFailure(one) || (one.status > 0 && one.status < 500) || attempt > 20) {
            throw new Error(`read request ${id}: ${one.status} ${one.message}`);
          } else await sleep(250);
        }
        const line = (item.lines as { accepted_quantity?: number; quantity: number }[])[0]!;
        return {
          id,
          status: item.status as string,
          quantity: line.accepted_quantity ?? line.quantity,
          history: (item.history as { status: string; at: string }[]).map((h) => ({ status: h.status, at: h.at })),
        };
      }),
    );
  }

  /** One step of a burst, as the farmer or the request's buyer would take it. */
  async act(kind: StepKind, request: Sent, farmer: Person, buyerOf: (s: Sent) => Person): Promise<CallRecord> {
    this.steps++;
    const path = (action: string) => `/api/orders/requests/${request.id}/${action}`;
    const route = (action: string) => `POST /api/orders/requests/:id/${action}`;
    switch (kind) {
      case 'accept':
        return this.call(farmer, 'POST', path('accept'), {}, route('accept'));
      case 'decline':
        return this.call(farmer, 'POST', path('decline'), { reason: 'Not this week' }, route('decline'));
      case 'fulfil':
        return this.call(farmer, 'POST', path('fulfil'), {}, route('fulfil'));
      case 'farmer-cancel':
        return this.call(farmer, 'POST', path('cancel'), { reason: 'The heap went bad' }, route('cancel'));
      case 'buyer-cancel':
        return this.call(buyerOf(request), 'POST', path('cancel'), { reason: 'Bought it elsewhere' }, route('cancel'));
    }
  }

  /** The invariant on one reading; `finals` holds what was seen final before (a final state never changes). */
  check(stock: number, now: readonly RequestView[], finals: Map<string, string>, where: string): void {
    this.checks++;
    for (const r of now) {
      if (!OPEN.has(r.status) && !FINAL.has(r.status))
        throw new Error(`${where}: request ${r.id} in "${r.status}", not a state of the machine`);
      const before = finals.get(r.id);
      if (before && before !== r.status) throw new Error(`${where}: request ${r.id} left its final state ${before} for ${r.status}`);
      if (FINAL.has(r.status)) finals.set(r.id, r.status);
    }
    const promised = now.filter((r) => HOLDING.has(r.status)).reduce((sum, r) => sum + r.quantity, 0);
    if (promised > stock) {
      const held = now.filter((r) => HOLDING.has(r.status)).map((r) => `${r.id.slice(0, 8)} ${r.status} ${r.quantity}`);
      throw new StockBreak(`${where}: ${promised} promised of a stock of ${stock} (${held.join(', ')})`);
    }
  }

  /** At the end: each request in exactly one final state by a legal path, and at no moment of the merged histories more promised than the stock. */
  checkEnd(stock: number, end: readonly RequestView[]): void {
    this.checks++;
    const changes: { at: number; delta: number; id: string }[] = [];
    for (const r of end) {
      if (!FINAL.has(r.status)) throw new Error(`request ${r.id} ended in "${r.status}", not a final state`);
      const path = r.history.map((h) => h.status);
      const finals = path.filter((s) => FINAL.has(s));
      const legal = path[0] === 'sent' && path.slice(1).every((s, i) => EDGES.has(`${path[i]}>${s}`));
      if (!legal || finals.length !== 1 || path.at(-1) !== r.status) {
        throw new Error(
          `request ${r.id} (${r.status}) has the history ${path.join(' → ')}: not one path of the machine to one final state`,
        );
      }
      const accepted = r.history.find((h) => h.status === 'accepted');
      if (accepted) changes.push({ at: Date.parse(accepted.at), delta: r.quantity, id: r.id });
      const cancelled = accepted && r.history.find((h) => h.status === 'cancelled');
      if (cancelled) changes.push({ at: Date.parse(cancelled.at), delta: -r.quantity, id: r.id });
    }
    // At one millisecond, releases first: only a promise sure to overlap another counts.
    changes.sort((a, b) => a.at - b.at || a.delta - b.delta);
    let promised = 0;
    for (const change of changes) {
      promised += change.delta;
      if (promised > stock) {
        throw new StockBreak(
          `at ${new Date(change.at).toISOString()} (accept of ${change.id.slice(0, 8)}) ${promised} promised of a stock of ${stock}, by the histories`,
        );
      }
    }
  }

  /** One interleaving on a new product of a farmer no one else uses meanwhile. */
  async interleave(plan: Plan): Promise<void> {
    const farmer = await this.#timed('people', () => this.farmers.take({ uploads: 2, posts: 1 }, { exclusive: true }));
    const people: Person[] = [];
    try {
      const productId = await this.#timed('product', () => this.product(farmer, plan.stock));
      const per = [0, 1].map((b) => plan.asks.filter((a) => a.buyer === b).length);
      for (const [b, n] of per.entries()) {
        // The first send may be refused while the product is news to the orders service: room for those tries.
        const needs = { sends: n + (b === plan.asks[0]!.buyer ? 3 : 1) };
        // Exclusive: a send writes the buyer's contact under the buyer's lock; lanes sharing a buyer would queue there.
        if (n > 0) people[b] = await this.#timed('people', () => this.buyers.take(needs, { exclusive: true }));
      }
      const personOf = new Map(people.filter(Boolean).map((p) => [p.actor, p]));
      const buyerOf = (s: Sent) => personOf.get(s.buyer)!;
      // One after another, as the original test sent them: every send takes the orders service's one request-number
      // lock, and 16 lanes sending at once starved some sends of it for over a minute (503 "Sending is busy").
      const sent: Sent[] = [];
      for (const ask of plan.asks) {
        sent.push(
          await this.#timed(sent.length ? 'sends' : 'first send', () => this.send(people[ask.buyer]!, farmer, productId, ask.quantity)),
        );
      }

      const finals = new Map<string, string>();
      for (const [n, burst] of plan.bursts.entries()) {
        const answers = await this.#timed('bursts', () =>
          Promise.all(burst.map((step) => this.act(step.kind, sent[step.request]!, farmer, buyerOf))),
        );
        for (const answer of answers) {
          if (this.#serverFailure(answer))
            throw new Error(`burst ${n + 1}: ${answer.route} answered ${answer.status}: ${answer.message.slice(0, 300)}`);
          if (answer.status !== 200 && answer.status !== 409 && answer.status !== 0 && answer.status < 500) {
            throw new Error(
              `burst ${n + 1}: ${answer.route} answered ${answer.status} (only 200 or 409 expected): ${answer.message.slice(0, 300)}`,
            );
          }
        }
        this.check(plan.stock, await this.#timed('reads', () => this.snapshot(farmer, sent)), finals, `after burst ${n + 1}`);
      }

      // Every request still open is ended, as its parties would: until it is final.
      const end = await this.#timed('ending', async () => {
        const before = await this.snapshot(farmer, sent);
        await Promise.all(
          before.map((r, i) => (OPEN.has(r.status) ? this.#end(sent[i]!, plan.endings[i] ?? true, farmer, buyerOf) : undefined)),
        );
        return this.snapshot(farmer, sent);
      });
      this.check(plan.stock, end, finals, 'at the end');
      this.checkEnd(plan.stock, end);
    } finally {
      farmer.busy = false;
      for (const buyer of people) if (buyer) buyer.busy = false;
    }
  }

  async #end(request: Sent, first: boolean, farmer: Person, buyerOf: (s: Sent) => Person): Promise<void> {
    for (let attempt = 1; attempt <= 30; attempt++) {
      const read = await this.call(farmer, 'GET', `/api/orders/requests/${request.id}`, undefined, 'GET /api/orders/requests/:id');
      if (this.#serverFailure(read)) throw new Error(`read request ${request.id}: ${read.status} ${read.message}`);
      if (read.status === 200) {
        const status = read.body.status as string;
        if (FINAL.has(status)) return;
        const kind: StepKind = status === 'sent' ? (first ? 'decline' : 'buyer-cancel') : first ? 'fulfil' : 'farmer-cancel';
        const answer = await this.act(kind, request, farmer, buyerOf);
        if (this.#serverFailure(answer))
          throw new Error(`ending ${request.id}: ${answer.route} answered ${answer.status}: ${answer.message}`);
        if (answer.status === 200) return;
      }
      // 409 "being changed by someone else right now" (a lock still held), or a lost answer: look again.
      await sleep(250);
    }
    throw new Error(`request ${request.id} could not be ended in 30 tries`);
  }

  /** `runs` interleavings, `lanes` at once; each lane its own fast-check run. */
  async run(options: StockRunOptions): Promise<StockRunResult> {
    this.#excused = options.excused;
    const started = Date.now();
    const failures: LaneFailure[] = [];
    let interleavings = 0;
    let passed = 0;
    let breaks = 0;
    let otherFailures = 0;
    let shrinkRuns = 0;
    const progress =
      options.progressEveryMs && options.progressEveryMs > 0
        ? setInterval(() => {
            const s = (Date.now() - started) / 1000;
            console.log(
              `stock property: ${interleavings}/${options.runs} interleavings in ${s.toFixed(0)} s (${(interleavings / s).toFixed(2)}/s), ` +
                `breaks ${breaks}, other failures ${otherFailures}, shrinking runs ${shrinkRuns}, people ${this.farmers.all.length} farmers ${this.buyers.all.length} buyers`,
            );
          }, options.progressEveryMs)
        : undefined;
    const lanes = Math.max(1, Math.min(options.lanes, options.runs));
    try {
      await Promise.all(
        Array.from({ length: lanes }, async (_, lane) => {
          const numRuns = Math.floor(options.runs / lanes) + (lane < options.runs % lanes ? 1 : 0);
          let failedAt: number | undefined;
          let shrinks = 0;
          const property = fc.asyncProperty(planArbitrary, async (plan) => {
            if (failedAt !== undefined) {
              // Shrinking: a candidate beyond the budget passes, so the smallest failure found so far stands.
              if (shrinks >= (options.shrinkRuns ?? 40) || Date.now() - failedAt > (options.shrinkMs ?? 300_000)) return;
              shrinks++;
              shrinkRuns++;
              await this.interleave(plan);
              return;
            }
            if (options.stopAt !== undefined && Date.now() > options.stopAt) return;
            try {
              await this.interleave(plan);
              passed++;
            } catch (err) {
              failedAt = Date.now();
              if (err instanceof StockBreak) breaks++;
              else otherFailures++;
              console.log(`stock property: lane ${lane} failed: ${(err as Error).message}`);
              throw err;
            } finally {
              interleavings++;
              options.onInterleaving?.(interleavings);
            }
          });
          const details = await fc.check(property, { numRuns, seed: options.seed + lane, endOnFailure: false });
          if (details.failed) {
            const error = details.errorInstance;
            failures.push({
              lane,
              seed: details.seed,
              path: details.counterexamplePath ?? '',
              counterexample: JSON.stringify(details.counterexample),
              error: error instanceof Error ? error.message : String(error),
              isBreak: error instanceof StockBreak,
            });
          }
        }),
      );
    } finally {
      if (progress) clearInterval(progress);
    }
    return {
      interleavings,
      passed,
      breaks,
      otherFailures,
      failures,
      shrinkRuns,
      checks: this.checks,
      steps: this.steps,
      sends: this.sends,
      excused: this.excusedCalls,
      seconds: (Date.now() - started) / 1000,
      people: { farmers: this.farmers.all.length, buyers: this.buyers.all.length },
      answers: this.answers,
      phases: this.phases,
    };
  }
}
