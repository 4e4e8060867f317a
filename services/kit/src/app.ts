// The Fastify app factory every service builds on: logging with request ids, one error shape,
// /health and /ready, OpenAPI from the route schemas. Tests build the same app and use inject().
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifySchema, type RawServerDefault, type RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import swagger from '@fastify/swagger';
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { ErrorResponse, HealthResponse, PROBLEM_MEDIA_TYPE, ReadyResponse } from '@tuber/contracts';
import { badRequest, registerErrorHandling } from './errors.js';
import { Readiness } from './readiness.js';
import { instrumentFastify, recordHttpRequest } from './observe.js';

export type ServiceApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
    /** The service's URL prefix behind the gateway, e.g. /api/catalog */
    apiPrefix: string;
  }
}

export interface ServiceAppOptions {
  /** Short service name: auth, profile, catalog, media, nutrition. */
  name: string;
  version?: string;
  description?: string;
  logLevel?: string;
  /** Largest accepted request body in bytes (multipart has its own limits). */
  bodyLimit?: number;
  /**
   * The gateway's address(es): IPs or CIDR ranges, comma-separated (TRUSTED_PROXIES). Only a
   * connection from one of them may say who the client is (X-Forwarded-For), and only its own
   * hop counts. Default: loopback, where the local gateway runs.
   */
  trustedProxies?: string;
}

/** Marks a pre-handler the kit provides with the statuses it can answer, so routes declare them. */
export const ANSWERS = Symbol.for('tuber.answers');
type Tagged = { [ANSWERS]?: number[] };

/**
 * Trusts exactly one hop, the gateway's: request.ip is then the address the gateway saw (the last
 * X-Forwarded-For entry), whatever else the client put in the header. Any other peer is the client.
 */
export function gatewayTrust(addresses: string): (address: string, hop: number) => boolean {
  const gateways = new BlockList();
  for (const entry of addresses
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range.`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) gateways.addAddress(address, type);
    else gateways.addSubnet(address, Number(prefix), type);
  }
  return (address, hop) => hop === 0 && isIP(address) !== 0 && gateways.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Adds the statuses the kit's own pre-handlers answer to a route's declared responses. */
function declareKitAnswers(route: RouteOptions): void {
  const schema = route.schema as { response?: Record<string, unknown> } | undefined;
  if (!schema?.response) return;
  const handlers = [route.onRequest, route.preParsing, route.preValidation, route.preHandler].flat().filter(Boolean) as Tagged[];
  for (const status of handlers.flatMap((h) => h[ANSWERS] ?? [])) schema.response[status] ??= Type.Ref('ErrorResponse');
}

// The pool's typings cover Fastify's calls only loosely; these are the shapes it is called with.
type RouteValidator = (route: { httpPart?: string }) => unknown;
type ValidatorBuilder = (externalSchemas: unknown, serverOptions?: { customOptions?: object }) => RouteValidator;
const validatorPool = AjvCompiler() as unknown as ValidatorBuilder;

/**
 * Query strings, path parameters and headers arrive as text and are coerced to their schema's types;
 * a JSON body is taken exactly as sent, so `"location": false` is refused (400) instead of being
 * stored as the text "false" (found by the attack suite's Schemathesis run).
 */
const buildValidator: ValidatorBuilder = (externalSchemas, serverOptions) => {
  const withOptions = (coerceTypes: 'array' | false) =>
    validatorPool(externalSchemas, { ...serverOptions, customOptions: { ...serverOptions?.customOptions, coerceTypes } });
  const coercing = withOptions('array');
  const exact = withOptions(false);
  return (route) => (route.httpPart === 'body' ? exact(route) : finiteOnly(coercing(route) as AjvValidate));
};

interface AjvValidate {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

/** The path (`/limit`, `/ids/0`) of the first number in `value` that is not finite, if any. */
export function nonFiniteAt(value: unknown, at = ''): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFiniteAt(item, `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Text coerced to a number may be `Infinity`, `-Infinity` or `1e400`. AJV lets such a number through
 * `integer`, `minimum` and `maximum` alike (they are checked for finite numbers only), and the database
 * then fails on it (500). One rule for every route's query, path and headers: a number is finite, or 400.
 */
function finiteOnly(validate: AjvValidate): AjvValidate {
  const checked: AjvValidate = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors ?? null;
      return false;
    }
    const at = nonFiniteAt(data);
    if (at === undefined) {
      checked.errors = null;
      return true;
    }
    checked.errors = [{ instancePath: at, schemaPath: '#', keyword: 'finite', params: {}, message: 'must be a finite number' }];
    return false;
  };
  return checked;
}

export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      base: { service: options.name },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    requestIdHeader: 'x-request-id',
    // One log line per request (below) instead of Fastify's two: the log write is most of what the
    // kit costs per request (bench P1).
    logController: new LogController({ disableRequestLogging: true }),
    // Services sit behind the gateway: trust only its hop, so request.ip is the address the
    // gateway saw (rate limits, logs) and a forged X-Forwarded-For changes nothing.
    trustProxy: gatewayTrust(options.trustedProxies ?? '127.0.0.1,::1'),
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1_048_576,
    // Long path parameters reach the routes' schemas (400 in the error shape) instead of the router's
    // own undeclared 414 at 100 characters; the gateway bounds the request line.
    routerOptions: { maxParamLength: 2048 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
    schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('readiness', new Readiness());
  app.decorate('apiPrefix', `/api/${options.name}`);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    // Request rate, errors and latency for the metrics endpoint (a no-op while metrics are off).
    recordHttpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  app.addSchema(ErrorResponse);
  registerErrorHandling(app);
  // PostgreSQL (FerretDB's storage) cannot keep U+0000 in a document: a body carrying one would fail
  // as a 500 on the write. Refused first, as the bad input it is (the attack suite sent one).
  app.addHook('preValidation', async (request) => {
    const where = nulCharacterAt(request.body);
    if (where !== null) throw badRequest('TEXT_NUL', `body${where}: text must not contain the NUL character (U+0000).`);
  });
  // Before swagger, so the OpenAPI document lists these statuses too.
  app.addHook('onRoute', declareKitAnswers);
  // Fastify spans when telemetry runs; after declareKitAnswers, which reads what the tracing wraps.
  instrumentFastify(app);

  await app.register(swagger, {
    transform: errorMediaTypes,
    openapi: {
      info: { title: `Tuber Market ${options.name} service`, version: options.version ?? '0.1.0', description: options.description },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });

  app.get('/health', { schema: { hide: true, response: { 200: HealthResponse } } }, async () => ({ status: 'ok' as const }));

  app.get('/ready', { schema: { hide: true, response: { 200: ReadyResponse, 503: ReadyResponse } } }, async (_request, reply) => {
    const { ready, checks } = await app.readiness.run();
    if (ready) return { status: 'ready' as const, checks };
    const down = Object.entries(checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name} (${c.error})`);
    return reply.code(503).send({ status: 'unavailable' as const, checks, message: `Not ready: ${down.join(', ')} unavailable.` });
  });

  app.get(`/api/${options.name}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  return app;
}

/**
 * The OpenAPI document's error answers in both media types they are sent in (docs/adr/0064): problem details
 * as application/problem+json to a client that accepts it, as application/json to any other (clients of the
 * first error shape). The routes' own schemas stay as they are: one schema serializes either.
 */
function errorMediaTypes({ schema, url }: { schema?: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  const response = (schema as { response?: Record<string, unknown> } | undefined)?.response;
  if (!schema || !response) return { schema: schema ?? {}, url };
  const wrapped = Object.fromEntries(
    Object.entries(response).map(([status, answer]) => {
      if (!/^[45]/.test(status) || !answer || typeof answer !== 'object' || 'content' in answer) return [status, answer];
      const description = (answer as { description?: string }).description;
      return [status, { ...(description ? { description } : {}), content: { 'application/json': { schema: answer }, [PROBLEM_MEDIA_TYPE]: { schema: answer } } }];
    }),
  );
  return { schema: { ...schema, response: wrapped }, url };
}

/** Where the first string holding U+0000 sits in a parsed JSON body ("/lastname", "/lines/0/note"), or null. */
export function nulCharacterAt(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '/' : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulCharacterAt(value[i], `${path}/${i}`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}/${key.split('\u0000').join('\\u0000')}`;
    const found = nulCharacterAt(item, `${path}/${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
