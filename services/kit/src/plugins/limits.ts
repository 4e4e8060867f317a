// Request limits counted in Redis (@fastify/rate-limit), so they hold across instances.
//  - A service-wide limit per client address, if the service wants one: lenient, it lets requests
//    through while Redis is away (a cache outage must not take the whole API down).
//  - Strict limits, per address on a route (`strictLimit`, in the route's config) or per signed-in
//    user (`app.limitPerUser`, keyed on the token subject): they protect mail, accounts, uploads
//    and contact data, so while Redis is away they refuse with 503 instead of letting everything by.
// A 429 says when to try again, in its message and in Retry-After.
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest, RouteOptions, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { Type } from '@sinclair/typebox';
import { ANSWERS, type ServiceApp } from '../app.js';
import { HttpError, unavailable } from '../errors.js';

export interface RateLimitsOptions {
  redis: Redis;
  /** Prefix of the counters' keys in Redis, e.g. "catalog:rate:". */
  nameSpace: string;
  /** A limit per client address for every route that sets none of its own (lenient while Redis is away). */
  perAddress?: { max: number; timeWindow: string | number };
  /** Longest wait for Redis before a strict limit refuses the request. */
  redisTimeoutMs?: number;
}

export interface UserLimit {
  /** Names the counter, e.g. "uploads" (one counter per user and name). */
  name: string;
  max: number;
  /** Milliseconds, or a duration such as "1 minute". */
  timeWindow: string | number;
  /** What was done too often, for the message: "Too many {what}." */
  what: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** An onRequest hook, placed after app.authenticate/requireRole, counting requests per token subject. */
    limitPerUser: (limit: UserLimit) => onRequestAsyncHookHandler;
  }
}

export const LIMITS_UNAVAILABLE =
  'Request limits cannot be checked right now, so this request was not accepted. Please try again in a minute.';

const tooMany = (what: string, seconds: number) =>
  new HttpError(429, `Too many ${what}. Please wait ${Math.max(1, seconds)} seconds and try again.`, {
    'retry-after': String(Math.max(1, seconds)),
  });

/** Route config for a strict per-address limit: `config: { rateLimit: strictLimit(5, '1 minute') }`. */
export function strictLimit(max: number, timeWindow: string | number): RateLimitOptions {
  return { max, timeWindow, skipOnError: false };
}

type StoreCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;
interface Store {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: { routeInfo?: { method?: string } }): Store;
}
type RedisStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => Store;
// The plugin's own Redis store (atomic INCR + PEXPIRE in Lua); it is not exported by name.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreClass;

/**
 * The plugin's Redis store, with Redis failures (down, or slower than `timeoutMs`) turned into a
 * 503 the strict limits pass on; the lenient one skips them (skipOnError).
 */
function failClosedStore(redis: Redis, nameSpace: string, timeoutMs: number) {
  return class FailClosedStore implements Store {
    readonly #inner: Store;
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }, inner?: Store) {
      this.#inner = inner ?? new RedisStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, redis, nameSpace);
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      let settled = false;
      const finish: StoreCallback = (err, result) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) callback(unavailable(LIMITS_UNAVAILABLE));
        else callback(null, result);
      };
      const timer = setTimeout(() => finish(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      try {
        this.#inner.incr(key, finish, timeWindow, max);
      } catch (err) {
        finish(err as Error);
      }
    }

    child(routeOptions: { routeInfo?: { method?: string } }): Store {
      // Per-user limits (no route) keep the plain prefix: their keys name the limit themselves.
      if (!routeOptions.routeInfo?.method) return new FailClosedStore({}, this.#inner);
      return new FailClosedStore({}, this.#inner.child(routeOptions));
    }
  };
}

/** Declares 429 (and 503 for strict limits) on the routes a limit applies to. */
function declareLimitAnswers(perAddress: boolean) {
  return (route: RouteOptions) => {
    const limit = route.config?.rateLimit;
    const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    if (!response || limit === false || (!limit && !perAddress)) return;
    response[429] ??= Type.Ref('ErrorResponse');
    if (limit && limit.skipOnError === false) response[503] ??= Type.Ref('ErrorResponse');
  };
}

export async function useRateLimits(app: ServiceApp, options: RateLimitsOptions): Promise<void> {
  app.addHook('onRoute', declareLimitAnswers(options.perAddress !== undefined));
  await app.register(rateLimit, {
    global: options.perAddress !== undefined,
    max: options.perAddress?.max ?? 1000,
    timeWindow: options.perAddress?.timeWindow ?? '1 minute',
    store: failClosedStore(options.redis, options.nameSpace, options.redisTimeoutMs ?? 2_000) as never,
    // The service-wide limit lets requests by while Redis is away; strict ones set skipOnError: false.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.ceil(context.ttl / 1000);
      return new HttpError(429, `Too many attempts. Please wait ${Math.max(1, seconds)} seconds and try again.`);
    },
  });

  app.decorate('limitPerUser', (limit: UserLimit): onRequestAsyncHookHandler => {
    const check = app.createRateLimit({
      max: limit.max,
      timeWindow: limit.timeWindow,
      skipOnError: false,
      keyGenerator: (request: FastifyRequest) => `user:${limit.name}:${request.identity.userId}`,
    });
    const hook = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.identity?.userId) throw new HttpError(401, 'Sign in to continue.');
      const result = await check(request);
      if (result.isAllowed) return;
      reply.header('x-ratelimit-limit', result.max);
      reply.header('x-ratelimit-remaining', result.remaining);
      reply.header('x-ratelimit-reset', result.ttlInSeconds);
      if (result.isExceeded) {
        request.log.info({ limit: limit.name, userId: request.identity.userId }, 'per-user limit reached');
        throw tooMany(limit.what, result.ttlInSeconds);
      }
    };
    return Object.assign(hook, { [ANSWERS]: [401, 429, 503] });
  });
}
