// One error shape across services (contracts/src/problems.ts, docs/adr/0064): RFC 9457 problem details with
// a stable code, version 1's { statusCode, error, message } beside them, and a message a person can act on.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import {
  PROBLEM_MEDIA_TYPE,
  problemType,
  type ErrorResponse,
  type FieldProblem,
  type ProblemCode,
  type ProblemParams,
} from '@tuber/contracts';

/** What went wrong, as the answer states it: a stable code, the English sentence, the values the words use. */
export interface Problem {
  code: ProblemCode;
  message: string;
  params?: ProblemParams;
  /** Field by field (VALIDATION_FAILED, STOCK_SHORT). */
  errors?: FieldProblem[];
}

/** A problem to answer with: `problem('PHONE_INVALID', PHONE_E164_PROBLEM)`. */
export const problem = (code: ProblemCode, message: string, params?: ProblemParams): Problem =>
  params ? { code, message, params } : { code, message };

export class HttpError extends Error {
  readonly problem: Problem;
  constructor(
    readonly statusCode: number,
    problem: Problem,
    /** Headers the answer carries, e.g. Retry-After on a 429 or 503. */
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.message);
    this.name = 'HttpError';
    this.problem = problem;
  }
}

type Refusal = { (problem: Problem): HttpError; (code: ProblemCode, message: string, params?: ProblemParams): HttpError };
const refusal =
  (status: number): Refusal =>
  (codeOrProblem: ProblemCode | Problem, message?: string, params?: ProblemParams) =>
    new HttpError(status, typeof codeOrProblem === 'string' ? problem(codeOrProblem, message ?? '', params) : codeOrProblem);

export const badRequest = refusal(400);
export const unauthorized = (message = 'Sign in to continue.', code: ProblemCode = 'SIGN_IN_REQUIRED') => new HttpError(401, { code, message });
export const forbidden = refusal(403);
export const notFound = refusal(404);
export const conflict = refusal(409);
/** 503 for a dependency that is away: the request was refused, not half done, and can be repeated. */
export const unavailable = (code: ProblemCode, message: string, retryAfterSeconds = 30) =>
  new HttpError(503, { code, message }, { 'retry-after': String(retryAfterSeconds) });

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

const UNAVAILABLE = {
  database: problem('DATABASE_UNAVAILABLE', 'The database is not answering right now. Please try again in a minute.'),
  redis: problem('REDIS_UNAVAILABLE', 'A service this request needs (Redis) is not answering right now. Please try again in a minute.'),
  'event bus': problem(
    'EVENT_BUS_UNAVAILABLE',
    'The event bus is not answering right now, so this request was not completed. Please try again in a minute.',
  ),
} as const;

/** The answer's body (ErrorResponse in contracts): problem details with version 1's three fields beside them. */
export function errorBody(statusCode: number, problem: Problem, extra: Record<string, unknown> = {}): ErrorResponse {
  const title = STATUS_CODES[statusCode] ?? 'Error';
  return {
    type: problemType(problem.code),
    title,
    status: statusCode,
    detail: problem.message,
    code: problem.code,
    ...(problem.params ? { params: problem.params } : {}),
    ...(problem.errors?.length ? { errors: problem.errors } : {}),
    statusCode,
    error: title,
    message: problem.message,
    ...extra,
  };
}

/**
 * Sends a problem: its status, its body, and application/problem+json to a client that accepts it (the front
 * ends ask for it); application/json to any other, as before problem details (docs/adr/0064).
 */
export function sendProblem(reply: FastifyReply, statusCode: number, problem: Problem, extra?: Record<string, unknown>) {
  const accept = reply.request.headers.accept ?? '';
  const type = accept.includes(PROBLEM_MEDIA_TYPE) ? PROBLEM_MEDIA_TYPE : 'application/json; charset=utf-8';
  return reply.code(statusCode).type(type).send(errorBody(statusCode, problem, extra));
}

/** One AJV error as the validator reports it. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params?: Record<string, unknown>;
  message?: string;
}

const LIMIT_CODES: Record<string, ProblemCode> = {
  minLength: 'FIELD_TOO_SHORT',
  maxLength: 'FIELD_TOO_LONG',
  minimum: 'FIELD_TOO_SMALL',
  exclusiveMinimum: 'FIELD_TOO_SMALL',
  maximum: 'FIELD_TOO_LARGE',
  exclusiveMaximum: 'FIELD_TOO_LARGE',
  minItems: 'FIELD_TOO_FEW',
  maxItems: 'FIELD_TOO_MANY',
  minProperties: 'FIELD_TOO_FEW',
  maxProperties: 'FIELD_TOO_MANY',
};
const KEYWORD_CODES: Record<string, ProblemCode> = {
  required: 'FIELD_REQUIRED',
  additionalProperties: 'FIELD_UNKNOWN',
  type: 'FIELD_TYPE',
  pattern: 'FIELD_FORMAT',
  format: 'FIELD_FORMAT',
  enum: 'FIELD_CHOICE',
  const: 'FIELD_CHOICE',
  anyOf: 'FIELD_CHOICE',
  uniqueItems: 'FIELD_DUPLICATE',
};

/**
 * One schema error as a field's problem: where ("body.phone", "query.limit"; a missing or unknown
 * property is named as the field itself), its code, its limit when it has one, and an English sentence.
 */
export function fieldProblemOf(error: SchemaError, part = 'body'): FieldProblem {
  const path = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '';
  const named = (error.params?.missingProperty ?? error.params?.additionalProperty) as string | undefined;
  const field = [part, path, named].filter(Boolean).join('.');
  const limit = error.params?.limit;
  const code = LIMIT_CODES[error.keyword] ?? KEYWORD_CODES[error.keyword] ?? 'FIELD_INVALID';
  const detail =
    error.keyword === 'required'
      ? `${part}: "${named}" is required.`
      : error.keyword === 'additionalProperties'
        ? `${part}: unknown field "${named}".`
        : `${part}${path ? ` field "${path}"` : ''} ${error.message ?? 'is invalid'}.`;
  return { field, code, detail, ...(typeof limit === 'number' ? { params: { limit } } : {}) };
}

/** A schema violation as VALIDATION_FAILED, every field named; the message is the first field's. */
export function validationProblem(errors: readonly SchemaError[], part = 'body'): Problem {
  const fields = errors.map((error) => fieldProblemOf(error, part));
  return { code: 'VALIDATION_FAILED', message: fields[0]?.detail ?? `${part} is not valid.`, errors: fields };
}

/** Fastify's own refusals (its FST_ERR_* codes) by what they mean to a client. */
function frameworkProblem(error: FastifyError, statusCode: number): Problem {
  const code: ProblemCode =
    statusCode === 413
      ? 'BODY_TOO_LARGE'
      : statusCode === 415
        ? 'UNSUPPORTED_MEDIA_TYPE'
        : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'BODY_NOT_JSON'
          : statusCode === 404
            ? 'ROUTE_NOT_FOUND'
            : statusCode === 429
              ? 'RATE_LIMITED'
              : 'REQUEST_INVALID';
  return { code, message: error.message, ...(code === 'RATE_LIMITED' ? { params: { seconds: 60 } } : {}) };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      return sendProblem(reply, 400, validationProblem(error.validation as SchemaError[], error.validationContext ?? 'request'));
    }
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (error instanceof HttpError) {
      // Raised on purpose with a message for people, including a 503 for a dependency that is away.
      if (statusCode >= 500) request.log.warn({ statusCode, reason: error.message }, 'request refused');
      return sendProblem(reply.headers(error.headers), statusCode, error.problem);
    }
    const away = unavailableDependency(error);
    if (away) {
      // A dependency out of reach is an outage to wait out, not a bug: 503 with a message and Retry-After.
      request.log.warn({ dependency: away, reason: error.message }, 'request refused: a dependency is unavailable');
      return sendProblem(reply.header('retry-after', '10'), 503, UNAVAILABLE[away]);
    }
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendProblem(reply, statusCode, problem('INTERNAL_ERROR', 'Something went wrong on our side. Please try again.'));
    }
    return sendProblem(reply, statusCode, frameworkProblem(error, statusCode));
  });
  app.setNotFoundHandler((request, reply) => {
    sendProblem(reply, 404, problem('ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url}.`));
  });
}
