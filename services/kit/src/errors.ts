// One error shape across services: { statusCode, error, message }, with a message a person can act on.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers the answer carries, e.g. Retry-After on a 429 or 503. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Sign in to continue.') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
/** 503 for a dependency that is away: the request was refused, not half done, and can be repeated. */
export const unavailable = (message: string, retryAfterSeconds = 30) =>
  new HttpError(503, message, { 'retry-after': String(retryAfterSeconds) });

/**
 * Which dependency an error says is out of reach, or undefined when the error is something else.
 * A database that is paused, restarting or unreachable (mongoose/driver connection, time-out and
 * server-selection errors), Redis away (ioredis and node-redis connection errors) and the event bus
 * away (`BusUnavailableError` from the kit's EventBus) are conditions the request cannot fix and a
 * retry later can: they are answered 503 with Retry-After, never 500 (docs/adr/0024).
 */
export function unavailableDependency(err: unknown): 'database' | 'redis' | 'event bus' | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name = '', message = '' } = e as { name?: string; message?: string };
    if (name === 'BusUnavailableError') return 'event bus';
    if (
      /^Mongo(ose)?(Network|NetworkTimeout|ServerSelection|NotConnected|Topology|TopologyClosed|PoolCleared|ServerClosed)Error$/.test(
        name,
      ) ||
      /^PoolCleared(OnNetwork)?Error$/.test(name) ||
      // mongoose with bufferCommands off, before (re)connecting; the driver after close
      /^(Client must be connected|Topology is closed|connection .* (closed|timed out))/i.test(message) ||
      // FerretDB answering, its PostgreSQL backend not: out of connection slots (SQLSTATE 53300,
      // 57P03 starting up) or unreachable. FerretDB reports these as a MongoServerError.
      (name === 'MongoServerError' && /SQLSTATE (53300|57P0[1-3])|failed to connect to `user=/.test(message))
    )
      return 'database';
    if (
      /^(MaxRetriesPerRequestError|ClientClosedError|ClientOfflineError|ConnectionTimeoutError|SocketClosedUnexpectedlyError|ReconnectStrategyError|SocketTimeoutError)$/.test(
        name,
      ) ||
      // node-redis errors keep the name "Error"; their messages say what happened
      /^(Stream isn't writeable|Connection is closed|The client is (closed|offline)|Socket closed unexpectedly|Connection timeout|Socket timeout)/.test(
        message,
      )
    )
      return 'redis';
  }
  return undefined;
}

const UNAVAILABLE_MESSAGES = {
  database: 'The database is not answering right now. Please try again in a minute.',
  redis: 'A service this request needs (Redis) is not answering right now. Please try again in a minute.',
  'event bus': 'The event bus is not answering right now, so this request was not completed. Please try again in a minute.',
} as const;

export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Turns an AJV validation failure into one readable sentence. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const path = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : '';
  if (first.keyword === 'required') {
    return `${where}: "${(first.params as { missingProperty: string }).missingProperty}" is required.`;
  }
  if (first.keyword === 'additionalProperties') {
    return `${where}: unknown field "${(first.params as { additionalProperty: string }).additionalProperty}".`;
  }
  return `${where}${path ? ` field "${path}"` : ''} ${first.message ?? 'is invalid'}.`;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      return reply.code(400).send(errorBody(400, validationMessage(error)));
    }
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (error instanceof HttpError) {
      // Raised on purpose with a message for people, including a 503 for a dependency that is away.
      if (statusCode >= 500) request.log.warn({ statusCode, reason: error.message }, 'request refused');
      return reply.code(statusCode).headers(error.headers).send(errorBody(statusCode, error.message));
    }
    const away = unavailableDependency(error);
    if (away) {
      // A dependency out of reach is an outage to wait out, not a bug: 503 with a message and Retry-After.
      request.log.warn({ dependency: away, reason: error.message }, 'request refused: a dependency is unavailable');
      return reply.code(503).header('retry-after', '10').send(errorBody(503, UNAVAILABLE_MESSAGES[away]));
    }
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(statusCode).send(errorBody(statusCode, 'Something went wrong on our side. Please try again.'));
    }
    return reply.code(statusCode).send(errorBody(statusCode, error.message));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `No route for ${request.method} ${request.url}.`));
  });
}
