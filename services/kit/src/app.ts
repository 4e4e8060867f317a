// The Fastify app factory every service builds on: logging with request ids, one error shape,
// /health and /ready, OpenAPI from the route schemas. Tests build the same app and use inject().
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { ErrorResponse, HealthResponse, ReadyResponse } from '@tuber/contracts';
import { registerErrorHandling } from './errors.js';
import { Readiness } from './readiness.js';

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
}

export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      base: { service: options.name },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    requestIdHeader: 'x-request-id',
    // Services sit behind the gateway on loopback or a private network: trust only those hops,
    // so request.ip is the browser's address (rate limits, logs) and cannot be spoofed from outside.
    trustProxy: ['127.0.0.1', '::1', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1_048_576,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('readiness', new Readiness());
  app.decorate('apiPrefix', `/api/${options.name}`);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addSchema(ErrorResponse);
  registerErrorHandling(app);

  await app.register(swagger, {
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
