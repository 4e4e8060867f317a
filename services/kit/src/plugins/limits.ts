// Request limits counted in Redis (@fastify/rate-limit with a node-redis store of our own), so
// they hold across instances.
//  - A service-wide limit per client address, if the service wants one: lenient, it lets requests
//    through while Redis is away (a cache outage must not take the whole API down).
//  - Strict limits, per address on a route (`strictLimit`, in the route's config) or per signed-in
//    user (`app.limitPerUser`, keyed on the token subject): they protect mail, accounts, uploads
//    and contact data, so while Redis is away they refuse with 503 instead of letting everything by.
// A 429 says when to try again, in its message and in Retry-After.
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteOptions, onRequestAsyncHookHandler } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ANSWERS, type ServiceApp } from '../app.js';
import { HttpError, problem, unauthorized, unavailable } from '../errors.js';
import type { RedisClient } from '../stores.js';

export interface RateLimitsOptions {
  redis: RedisClient;
  /** Prefix of the counters' keys in Redis, e.g. "catalog:rate:". */
  nameSpace: string;
  /**
   * A limit per client for every route that sets none of its own (lenient while Redis is away). The
   * client is the person where there is one (their access token, or the `sessionCookie`), the address
   * only where there is none (clientKey): thousands of people share one carrier address.
   */
  perAddress?: { max: number; timeWindow: string | number };
  /** A cookie that names a signed-in person's kept sign-in (the auth service's), counted as that person. */
  sessionCookie?: string;
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
  new HttpError(
    429,
    problem('RATE_LIMITED', `Too many ${what}. Please wait ${Math.max(1, seconds)} seconds and try again.`, { seconds: Math.max(1, seconds) }),
    {
    'retry-after': String(Math.max(1, seconds)),
  });

/** Route config for a strict per-address limit: `config: { rateLimit: strictLimit(5, '1 minute') }`. */
export function strictLimit(max: number, timeWindow: string | number): RateLimitOptions {
  return { max, timeWindow, skipOnError: false };
}

type StoreCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;
interface Store {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: { continueExceeding?: boolean; routeInfo?: { method?: string; url?: string } }): Store;
}

/**
 * One atomic step of a fixed-window counter: count the request; the first one of a window (or,
 * with continueExceeding, any over the limit) starts the window anew. Answers {count, ms left}.
 * The same contract as the plugin's own store, which is written for ioredis only.
 */
const COUNT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 or (ARGV[3] == '1' and current > tonumber(ARGV[2])) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {current, tonumber(ARGV[1])}
end
return {current, redis.call('PTTL', KEYS[1])}`;
const COUNT_SHA = createHash('sha1').update(COUNT).digest('hex');

/** Runs COUNT by its hash (one round trip), loading it once if this Redis does not know it yet. */
async function count(redis: RedisClient, key: string, timeWindow: number, max: number, continueExceeding: boolean) {
  const options = { keys: [key], arguments: [String(timeWindow), String(max), continueExceeding ? '1' : '0'] };
  const reply = await redis.evalSha(COUNT_SHA, options).catch((err: Error) => {
    if (!err.message.startsWith('NOSCRIPT')) throw err;
    return redis.eval(COUNT, options);
  });
  const [current, ttl] = reply as [number, number];
  return { current: Number(current), ttl: Math.max(0, Number(ttl)) };
}

/**
 * The counters' store for @fastify/rate-limit, written against node-redis (the plugin's own
 * Redis store calls ioredis-only methods). Redis failures (down, or slower than `timeoutMs`)
 * become a 503 the strict limits pass on; the lenient one skips them (skipOnError).
 * Keys: `<nameSpace><address or user key>`, per-route `<nameSpace><METHOD><url>-<address>`.
 */
function redisLimitStore(redis: RedisClient, nameSpace: string, timeoutMs: number) {
  return class RedisLimitStore implements Store {
    readonly #prefix: string;
    readonly #continueExceeding: boolean;

    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }, prefix = nameSpace) {
      if (params.exponentialBackoff) throw new Error('The Redis limit store does not implement exponentialBackoff.');
      this.#prefix = prefix;
      this.#continueExceeding = params.continueExceeding ?? false;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      let settled = false;
      const finish: StoreCallback = (err, result) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) callback(unavailable('LIMITS_UNAVAILABLE', LIMITS_UNAVAILABLE));
        else callback(null, result);
      };
      const timer = setTimeout(() => finish(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      count(redis, this.#prefix + key, timeWindow, max, this.#continueExceeding).then(
        (result) => finish(null, result),
        (err: Error) => finish(err),
      );
    }

    child(routeOptions: {
      continueExceeding?: boolean;
      exponentialBackoff?: boolean;
      routeInfo?: { method?: string; url?: string };
    }): Store {
      const route = routeOptions.routeInfo;
      // Per-user limits (no route) keep the plain prefix: their keys name the limit themselves.
      if (!route?.method) return new RedisLimitStore(routeOptions, this.#prefix);
      return new RedisLimitStore(routeOptions, `${this.#prefix}${route.method}${route.url ?? ''}-`);
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

/** The last characters of a JWT's signature name the token; nothing is decoded or trusted here. */
const TOKEN_SIGNATURE = /^Bearer [^.\s]+\.[^.\s]+\.([A-Za-z0-9_-]{32})/;

/**
 * Who a request is counted for (issue 24): its access token, or its kept sign-in's cookie, so that one
 * person's flood is theirs alone; the address only for requests with neither (sign-in, sign-up, forgot
 * password). A token that is not real is refused by the route's own check, so a made-up one buys nothing.
 */
export function clientKey(request: Pick<FastifyRequest, 'headers' | 'ip'>, sessionCookie?: string): string {
  const token = TOKEN_SIGNATURE.exec(request.headers.authorization ?? '')?.[1];
  if (token) return `t:${token}`;
  if (sessionCookie) {
    const cookie = new RegExp(`(?:^|;\\s*)${sessionCookie}=([^;]+)`).exec(request.headers.cookie ?? '')?.[1];
    if (cookie) return `s:${createHash('sha256').update(cookie).digest('base64url').slice(0, 22)}`;
  }
  return request.ip;
}

export async function useRateLimits(app: ServiceApp, options: RateLimitsOptions): Promise<void> {
  app.addHook('onRoute', declareLimitAnswers(options.perAddress !== undefined));
  await app.register(rateLimit, {
    global: options.perAddress !== undefined,
    keyGenerator: (request) => clientKey(request, options.sessionCookie),
    max: options.perAddress?.max ?? 1000,
    timeWindow: options.perAddress?.timeWindow ?? '1 minute',
    store: redisLimitStore(options.redis, options.nameSpace, options.redisTimeoutMs ?? 2_000) as never,
    // The service-wide limit lets requests by while Redis is away; strict ones set skipOnError: false.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.ceil(context.ttl / 1000);
      return new HttpError(
        429,
        problem('RATE_LIMITED', `Too many attempts. Please wait ${Math.max(1, seconds)} seconds and try again.`, { seconds: Math.max(1, seconds) }),
      );
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
      if (!request.identity?.userId) throw unauthorized();
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
