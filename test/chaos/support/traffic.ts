// Keyed command drivers through the gateway, for the fault scenarios: farmer accounts that each
// talk from their own loopback address (the gateway limits requests per client address, and every
// 127.0.0.x address is this machine), photo uploads, product posts and deletes, profile changes;
// a recorder of status codes and latencies per route; a bounded worker pool.
import { Agent, request } from 'undici';
import sharp from 'sharp';
import { createAccount, deleteAccount, type AccountOptions } from '../../support/accounts.js';
import { signInWithPassword } from '../../support/keycloak.js';
import { PUBLIC_URL } from './faults.js';

/** The gateway by address: a client bound to 127.0.0.x must reach it over IPv4 (localhost may be ::1). */
export const GATEWAY = PUBLIC_URL.replace('//localhost', '//127.0.0.1');
const realm = `${PUBLIC_URL}/auth/realms/tuber/protocol/openid-connect`;

/** Scenario size: `CHAOS_SCALE=full` for `make chaos`, `short` (the default) for CI. */
export const SCALE: 'full' | 'short' = process.env.CHAOS_SCALE === 'full' ? 'full' : 'short';
export const byScale = <T>(full: T, short: T): T => (SCALE === 'full' ? full : short);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- what the traffic saw ----
export interface RouteStats {
  route: string;
  count: number;
  errors: number;
  statuses: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0;

/** Status codes and latencies per route ("POST /api/catalog/products"); an error is a 5xx or no answer. */
export class Recorder {
  readonly #latencies = new Map<string, number[]>();
  readonly #statuses = new Map<string, Record<string, number>>();

  record(route: string, status: number | 'network', ms: number): void {
    const list = this.#latencies.get(route) ?? [];
    list.push(ms);
    this.#latencies.set(route, list);
    const statuses = this.#statuses.get(route) ?? {};
    statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    this.#statuses.set(route, statuses);
  }

  stats(): RouteStats[] {
    return [...this.#latencies].map(([route, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      const statuses = this.#statuses.get(route) ?? {};
      const errors = Object.entries(statuses)
        .filter(([status]) => status === 'network' || Number(status) >= 500)
        .reduce((sum, [, n]) => sum + n, 0);
      return {
        route,
        count: list.length,
        errors,
        statuses,
        p50: Math.round(quantile(sorted, 0.5)),
        p95: Math.round(quantile(sorted, 0.95)),
        p99: Math.round(quantile(sorted, 0.99)),
        max: Math.round(sorted.at(-1) ?? 0),
      };
    });
  }

  /** Count of answers with this status (or 'network') over every route. */
  count(status: number | 'network'): number {
    return [...this.#statuses.values()].reduce((sum, s) => sum + (s[String(status)] ?? 0), 0);
  }
}

// ---- clients ----
const agents = new Map<string, Agent>();
/** One connection pool per loopback source address. */
export function agentFor(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ connect: { localAddress: address }, connections: 16, keepAliveTimeout: 10_000 });
    agents.set(address, agent);
  }
  return agent;
}

/** The n-th client address: 127.0.0.10, 127.0.0.11, … (never 127.0.0.1, which other tests use). */
export const clientAddress = (n: number) => `127.0.${Math.floor((10 + n) / 250)}.${((10 + n) % 250) + 1}`;

export async function closeAgents(): Promise<void> {
  await Promise.all([...agents.values()].map((agent) => agent.close().catch(() => undefined)));
  agents.clear();
}

export interface Answer<T = any> {
  status: number;
  body: T;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
  /** Route name for the recorder (defaults to METHOD path with ids replaced by :id). */
  route?: string;
  recorder?: Recorder;
  address?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const routeOf = (method: string, path: string) =>
  `${method} ${path.split('?')[0]!.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')}`;

/** One request through the gateway from `address`. A connection failure answers status 0. */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    // undici's request takes a body, not a FormData: let the platform encode it.
    const encoded = new Response(options.form);
    headers['content-type'] = encoded.headers.get('content-type')!;
    body = Buffer.from(await encoded.arrayBuffer());
  } else if (method !== 'GET' && method !== 'HEAD') {
    // An empty body with its length, as browsers send it (without one nginx waits for a body).
    body = '';
    headers['content-length'] = '0';
  }
  const route = options.route ?? routeOf(method, path);
  const started = performance.now();
  try {
    const response = await request(`${GATEWAY}${path}`, {
      method: method as 'GET',
      headers,
      body,
      dispatcher: options.address ? agentFor(options.address) : undefined,
      headersTimeout: options.timeoutMs ?? 30_000,
      bodyTimeout: options.timeoutMs ?? 30_000,
    });
    const text = await response.body.text();
    const ms = performance.now() - started;
    options.recorder?.record(route, response.statusCode, ms);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: response.statusCode, body: parsed as T, ms, headers: response.headers };
  } catch (err) {
    const ms = performance.now() - started;
    options.recorder?.record(route, 'network', ms);
    return { status: 0, body: { message: (err as Error).message } as T, ms, headers: {} };
  }
}

// ---- actors: a signed-in account with its own client address ----
export class Actor {
  #token = '';
  #refresh = '';

  constructor(
    readonly id: string,
    readonly email: string,
    readonly password: string,
    readonly address: string,
    readonly role: 'buyer' | 'farmer',
  ) {}

  get token(): string {
    return this.#token;
  }

  async signIn(): Promise<void> {
    const tokens = await signInWithPassword(this.email, this.password);
    this.#token = tokens.accessToken;
    this.#refresh = tokens.refreshToken;
  }

  /** A new access token from the refresh token (tokens live 5 minutes), or a new sign-in. */
  async renew(): Promise<void> {
    if (this.#refresh) {
      const answer = await fetch(`${realm}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'tuber-web', refresh_token: this.#refresh }),
      });
      const tokens = (await answer.json().catch(() => ({}))) as { access_token?: string; refresh_token?: string };
      if (tokens.access_token) {
        this.#token = tokens.access_token;
        this.#refresh = tokens.refresh_token ?? this.#refresh;
        return;
      }
    }
    await this.signIn();
  }

  /** A call as this actor; an expired token is renewed once and the call repeated. */
  async call<T = any>(method: string, path: string, options: Omit<CallOptions, 'token' | 'address'> = {}): Promise<Answer<T>> {
    let answer = await call<T>(method, path, { ...options, token: this.#token, address: this.address });
    if (answer.status === 401) {
      await this.renew();
      answer = await call<T>(method, path, { ...options, token: this.#token, address: this.address });
    }
    return answer;
  }
}

/** Runs `tasks` with at most `concurrency` at once; resolves with their results in order. */
export async function pool<T>(concurrency: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

/**
 * Verified accounts of `role`, signed in, each with its profile set up (POST /api/profile/me) and
 * its own client address from `firstAddress` on. Farmers grow every tuber.
 */
export async function actors(
  role: 'buyer' | 'farmer',
  count: number,
  firstAddress = 0,
  options: Partial<AccountOptions> = {},
): Promise<Actor[]> {
  return pool(
    4,
    Array.from({ length: count }, (_, n) => async () => {
      const account = await createAccount({
        role,
        ...(role === 'farmer'
          ? { businessName: `Chaos Farm ${n}`, location: 'Ibadan', tuber: ['yam', 'cassava', 'potato', 'sweet potato', 'ginger'] }
          : {}),
        ...options,
      });
      const actor = new Actor(account.id, account.email, account.password, clientAddress(firstAddress + n), role);
      await actor.signIn();
      const created = await actor.call('POST', '/api/profile/me');
      if (created.status !== 201 && created.status !== 200)
        throw new Error(`profile of ${account.email}: HTTP ${created.status} ${JSON.stringify(created.body)}`);
      return actor;
    }),
  );
}

/** Deletes the accounts (AccountDeleted then removes their products and photos). */
export async function removeActors(list: Actor[]): Promise<void> {
  await pool(
    4,
    list.map((actor) => () => deleteAccount(actor.id)),
  );
}

// ---- farmer commands ----
let smallPhoto: Promise<Buffer> | undefined;
/** A small real JPEG (decoding it is cheap, so uploads do not dominate the run). */
export function tinyPhoto(): Promise<Buffer> {
  smallPhoto ??= sharp({ create: { width: 96, height: 72, channels: 3, background: { r: 180, g: 120, b: 60 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return smallPhoto;
}

export function photoForm(bytes: Buffer, name = 'chaos.jpg'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  return form;
}

/** Uploads one photo; a 429/503 (too many at once) waits and tries again. Resolves with its image id. */
export async function uploadPhoto(farmer: Actor, recorder?: Recorder, bytes?: Buffer): Promise<string> {
  const data = bytes ?? (await tinyPhoto());
  for (let attempt = 1; ; attempt++) {
    const answer = await farmer.call('POST', '/api/media/images', { form: photoForm(data), recorder });
    if (answer.status === 201) return answer.body.image_id as string;
    if ((answer.status === 429 || answer.status === 503) && attempt < 20) {
      await sleep(500 * attempt);
      continue;
    }
    throw new Error(`upload for ${farmer.email}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

export const newProduct = (key: string, imageIds: string[], tuber = 'yam') => ({
  product_name: key,
  description: `Fault-injection product ${key}`,
  price: 1500,
  kg: 10,
  tuber_type: tuber,
  image_ids: imageIds,
  cultural: 'Posted by the fault-injection run',
});

/** Polls `probe` until `done` holds or `timeoutMs` passes; resolves with the last value. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 250): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() - started > timeoutMs) return value;
    await sleep(everyMs);
  }
}
