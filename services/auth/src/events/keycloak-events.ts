// Tells the rest of the system what happened to accounts in Keycloak. Keycloak stores user events
// (DELETE_ACCOUNT, UPDATE_EMAIL, …) and admin events (a user updated or deleted through the admin
// API or console); this relay reads them through the admin REST API every few seconds, from a
// cursor kept in Redis, and publishes AccountDeleted / AccountEmailChanged (docs/adr/0021).
//
// What it publishes is the account's state at the time of reading, not the event's details: for
// each account an event names, Keycloak is asked for the account — gone means AccountDeleted,
// present means AccountEmailChanged with the address and whether it is verified. Reading an event
// twice therefore publishes the same truth twice, which consumers ignore, so the relay may repeat
// but never needs to be exact: the cursor moves only after everything up to it was published (a
// crash repeats a little), and a lease in Redis lets one replica read at a time (two replicas
// would only repeat each other).
//
// Redis:
//   auth:kc-events:cursor:<user|admin>  → {"time": ms, "keys": [events already read at that ms]}
//   auth:kc-events:lease                → owner id, PX lease
import { randomUUID } from 'node:crypto';
import { AccountDeleted, AccountEmailChanged, localeOf } from '@tuber/contracts';
import type { EventBus, RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountDirectory, EventPage, RealmEvent, RealmEvents } from '../keycloak.js';

/** User events after which an account may be gone or have another address. */
export const USER_EVENT_TYPES = ['DELETE_ACCOUNT', 'UPDATE_EMAIL', 'UPDATE_PROFILE', 'VERIFY_EMAIL'] as const;
/** Admin operations on a user after which it may be gone or have another address. */
export const ADMIN_OPERATIONS = ['UPDATE', 'DELETE'] as const;

type Stream = 'user' | 'admin';
interface Cursor {
  time: number;
  keys: string[];
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export interface RelayOptions {
  /** How far back a relay with no cursor yet starts reading. */
  lookbackMs?: number;
  pageSize?: number;
  /** How long one replica may read before another may take over. */
  leaseMs?: number;
  /** Where the cursors and the lease live in Redis (tests give a relay its own). */
  keyPrefix?: string;
}

export interface RelayDeps {
  events: RealmEvents;
  accounts: Pick<AccountDirectory, 'findById'>;
  bus: Pick<EventBus, 'publish'>;
  redis: RedisClient;
  log: FastifyBaseLogger;
}

export class AccountEventRelay {
  readonly #owner = randomUUID();
  readonly #lookbackMs: number;
  readonly #pageSize: number;
  readonly #leaseMs: number;
  readonly #prefix: string;

  constructor(
    private readonly deps: RelayDeps,
    options: RelayOptions = {},
  ) {
    this.#lookbackMs = options.lookbackMs ?? 24 * 3_600_000;
    this.#pageSize = options.pageSize ?? 200;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#prefix = options.keyPrefix ?? 'auth:kc-events';
  }

  /** Reads what happened since the cursors and publishes it. Returns how many events were published, or undefined if another replica is reading. */
  async pollOnce(): Promise<number | undefined> {
    const { redis } = this.deps;
    const lease = `${this.#prefix}:lease`;
    if ((await redis.set(lease, this.#owner, { expiration: { type: 'PX', value: this.#leaseMs }, condition: 'NX' })) !== 'OK')
      return undefined;
    try {
      let published = 0;
      for (const stream of ['admin', 'user'] as const) published += await this.#pollStream(stream);
      return published;
    } finally {
      await redis.eval(RELEASE, { keys: [lease], arguments: [this.#owner] }).catch(() => undefined);
    }
  }

  async #pollStream(stream: Stream): Promise<number> {
    const cursorKey = `${this.#prefix}:cursor:${stream}`;
    const stored = await this.deps.redis.get(cursorKey);
    const cursor: Cursor = stored ? (JSON.parse(stored) as Cursor) : { time: Date.now() - this.#lookbackMs, keys: [] };
    const fresh = await this.#collect(stream, cursor);
    if (fresh.length === 0) return 0;

    // The latest event per account; accounts in the order their latest events happened.
    const latest = new Map<string, number>();
    for (const event of fresh) if (event.userId) latest.set(event.userId, Math.max(latest.get(event.userId) ?? 0, event.time));
    let published = 0;
    for (const [userId, time] of [...latest].sort((a, b) => a[1] - b[1])) {
      await this.#publishState(userId, time);
      published += 1;
    }

    const newest = fresh.reduce((max, event) => Math.max(max, event.time), cursor.time);
    const keysAtNewest = fresh.filter((event) => event.time === newest).map((event) => event.key);
    const next: Cursor = { time: newest, keys: newest === cursor.time ? [...cursor.keys, ...keysAtNewest] : keysAtNewest };
    await this.deps.redis.set(cursorKey, JSON.stringify(next));
    return published;
  }

  /** Events after the cursor, newest first. Keycloak lists newest first: paging stops at the first older event. */
  async #collect(stream: Stream, cursor: Cursor): Promise<RealmEvent[]> {
    const fresh: RealmEvent[] = [];
    const page: EventPage = { dateFrom: new Date(cursor.time).toISOString().slice(0, 10), first: 0, max: this.#pageSize };
    for (;;) {
      const events =
        stream === 'user'
          ? await this.deps.events.userEvents(page, USER_EVENT_TYPES)
          : await this.deps.events.adminEvents(page, ADMIN_OPERATIONS);
      let older = false;
      for (const event of events) {
        if (event.time < cursor.time) older = true;
        else if (event.time > cursor.time || !cursor.keys.includes(event.key)) fresh.push(event);
      }
      if (older || events.length < page.max) return fresh;
      // Events that arrive meanwhile push the list down: the next page then repeats some, never skips.
      page.first += page.max;
    }
  }

  async #publishState(userId: string, time: number): Promise<void> {
    const at = new Date(time).toISOString();
    const account = await this.deps.accounts.findById(userId);
    if (!account) {
      await this.deps.bus.publish(AccountDeleted, { user_id: userId, deleted_at: at }, `identity-account-deleted:${userId}`);
      this.deps.log.info({ userId }, 'account deleted in Keycloak; published');
      return;
    }
    // The account's language travels with it (issue 13): Keycloak records setting the locale attribute as an
    // UPDATE_PROFILE user event or an admin UPDATE, both of which bring the relay here.
    const locale = localeOf(account.attributes.locale);
    await this.deps.bus.publish(
      AccountEmailChanged,
      { user_id: userId, email: account.email, email_verified: account.emailVerified, changed_at: at, ...(locale ? { locale } : {}) },
      `identity-email-changed:${userId}:${time}`,
    );
  }
}

/** Runs the relay every `intervalMs` while the app runs (0: never). Failures are logged at most once a minute. */
export function runAccountEventRelay(relay: AccountEventRelay, log: FastifyBaseLogger, intervalMs: number): { stop(): Promise<void> } {
  if (intervalMs <= 0) return { stop: async () => undefined };
  let running: Promise<void> | undefined;
  let lastWarning = 0;
  const timer = setInterval(() => {
    if (running) return;
    running = relay
      .pollOnce()
      .then(() => undefined)
      .catch((err: unknown) => {
        if (Date.now() - lastWarning < 60_000) return;
        lastWarning = Date.now();
        log.warn({ err }, 'could not read Keycloak events; will retry (are realm events enabled, with view-events for tuber-auth?)');
      })
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
