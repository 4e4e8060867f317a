// The unread count, live (issue 25, docs/adr/0067, superseding ADR 0032): a person's open page hears within
// a second or two that the other party changed one of their requests, without polling every few seconds.
//
//   POST /api/orders/unread/ticket            (bearer token)  -> 201 { ticket, expires_in }
//   GET  /api/orders/unread/stream?ticket=…   (no token)      -> text/event-stream: `unread` events { count }
//
// EventSource cannot send an Authorization header, and a token in a URL ends up in access logs and the
// browser's history. So the page buys a ticket with its token: 32 random bytes, kept in Redis for
// TICKET_TTL_S under its SHA-256 only, spent by the first GET that shows it. A logged URL holds a spent
// ticket. The stream lives no longer than the token that bought it, and never past STREAM_MAX_MS: the page
// then buys a new ticket with a fresh token, so a stream never outlives a sign-in by more than that.
//
// Every instance holds the streams of its own clients. A change is told to all instances as a core NATS
// signal (EventBus.signal: nothing kept); each instance counts again for the people it holds and sends the
// new count when it moved. A lost signal costs a late badge: the page falls back to polling when the
// stream is away, and asks again when the tab wakes.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Type } from '@sinclair/typebox';
import {
  badRequest,
  HttpError,
  problem,
  SIGN_IN_ENDED,
  unauthorized,
  type EventBus,
  type Identity,
  type RedisClient,
  type RevokedSessions,
  type ServiceApp,
} from '@tuber/kit';
import { StreamTicket, StreamTicketQuery, UnreadStreamEvent } from '@tuber/contracts';

export const UNREAD_SIGNAL = 'signal.orders.unread';
export const TICKET_PREFIX = 'orders:stream-ticket:';
export const TICKET_TTL_S = 30;
/** How long one stream may last at most; the page then buys a new ticket (and so shows a live token). */
export const STREAM_MAX_MS = 5 * 60_000;
/** A `ping` event this often keeps proxies (nginx reads time out at 60 s) and mobile networks from closing an idle stream. */
export const HEARTBEAT_MS = 20_000;
/** Streams one person may hold on one instance (tabs, phones); the next one is refused and that page polls. */
export const STREAMS_PER_PERSON = 6;
/** Streams one instance holds at most (each is a socket and a few KB); the next one is refused and that page polls. */
export const STREAMS_PER_INSTANCE = 5_000;
/** Changes to one person within this window are counted once. */
const RECOUNT_DELAY_MS = 50;

type Party = 'buyer' | 'farmer';

interface TicketHolder {
  userId: string;
  party: Party;
  sid?: string;
  /** When the token that bought the ticket expires (ms since the epoch). */
  until: number;
}

interface Stream {
  userId: string;
  party: Party;
  response: ServerResponse;
  lastCount: number | undefined;
  timers: NodeJS.Timeout[];
}

export interface UnreadStreamDeps {
  bus: EventBus;
  redis: RedisClient;
  partyOf(identity: Identity): Party;
  count(party: Party, userId: string): Promise<number>;
  limits?: { perPerson?: number; perInstance?: number; maxMs?: number; heartbeatMs?: number };
}

export interface UnreadStreams {
  /** Tells every instance that these people's counts may have moved. */
  changed(userIds: readonly string[]): void;
  /** Streams open on this instance now. */
  readonly open: number;
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');
const err = Type.Ref('ErrorResponse');

export function unreadStreamRoutes(app: ServiceApp, deps: UnreadStreamDeps): UnreadStreams {
  const perPerson = deps.limits?.perPerson ?? STREAMS_PER_PERSON;
  const perInstance = deps.limits?.perInstance ?? STREAMS_PER_INSTANCE;
  const maxMs = deps.limits?.maxMs ?? STREAM_MAX_MS;
  const heartbeatMs = deps.limits?.heartbeatMs ?? HEARTBEAT_MS;
  const byPerson = new Map<string, Set<Stream>>();
  const pending = new Map<string, NodeJS.Timeout>();
  let open = 0;

  const write = (stream: Stream, text: string) => {
    if (!stream.response.writableEnded) stream.response.write(text);
  };

  async function sendCount(stream: Stream): Promise<void> {
    const count = await deps.count(stream.party, stream.userId);
    if (count === stream.lastCount) return;
    stream.lastCount = count;
    write(stream, `event: unread\ndata: ${JSON.stringify({ count })}\n\n`);
  }

  function recount(userId: string): void {
    const streams = byPerson.get(userId);
    if (!streams?.size || pending.has(userId)) return;
    pending.set(
      userId,
      setTimeout(() => {
        pending.delete(userId);
        for (const stream of byPerson.get(userId) ?? [])
          sendCount(stream).catch((error: unknown) => app.log.warn({ err: error, userId }, 'unread count for a live stream failed'));
      }, RECOUNT_DELAY_MS),
    );
  }

  function close(stream: Stream, why: 'ended' | 'gone' | 'shutdown'): void {
    for (const timer of stream.timers) clearTimeout(timer);
    stream.timers = [];
    const streams = byPerson.get(stream.userId);
    if (!streams?.delete(stream)) return;
    open -= 1;
    if (streams.size === 0) byPerson.delete(stream.userId);
    // `end` tells the page to buy a new ticket now (a shutdown: from another instance).
    if (why !== 'gone' && !stream.response.writableEnded) {
      stream.response.write(`event: end\ndata: ${JSON.stringify({ reason: why })}\n\n`);
      // The connection goes with the stream: the next one opens with a new ticket, at a new address, and an
      // idle socket left behind would hold a shutting-down instance open until its keep-alive runs out.
      const socket = stream.response.socket;
      stream.response.end();
      socket?.end();
      setTimeout(() => socket?.destroy(), 1_000).unref();
    }
  }

  const stopSignals = deps.bus.onSignal(UNREAD_SIGNAL, (payload) => {
    const ids = (payload as { user_ids?: unknown })?.user_ids;
    if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') recount(id);
  });
  app.addHook('preClose', async () => {
    stopSignals();
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
    for (const streams of [...byPerson.values()]) for (const stream of [...streams]) close(stream, 'shutdown');
  });

  app.post(
    '/api/orders/unread/ticket',
    {
      onRequest: app.authenticate,
      // No body: the ticket is for the token's person and nothing a caller writes. Nothing, or {}, is taken;
      // anything else is refused (a body schema would make the OpenAPI document demand one).
      preValidation: async (request) => {
        const body = request.body;
        const empty =
          body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
        if (!empty) throw badRequest('REQUEST_INVALID', 'This request takes no body: send nothing, or {}.');
      },
      schema: {
        summary: 'A single-use ticket, valid 30 s, that opens the live unread stream (EventSource sends no token); takes no body',
        security: [{ bearer: [] }],
        response: { 201: StreamTicket, 400: err, 401: err, 403: err, 429: err, 503: err },
      },
    },
    async (request, reply) => {
      const identity = request.identity;
      const party = deps.partyOf(identity);
      const ticket = randomBytes(32).toString('base64url');
      const exp = typeof identity.claims.exp === 'number' ? identity.claims.exp * 1000 : Date.now() + maxMs;
      const sid = typeof identity.claims.sid === 'string' ? identity.claims.sid : undefined;
      const holder: TicketHolder = { userId: identity.userId, party, until: exp, ...(sid ? { sid } : {}) };
      await deps.redis.set(`${TICKET_PREFIX}${hashOf(ticket)}`, JSON.stringify(holder), { EX: TICKET_TTL_S });
      return reply.code(201).send({ ticket, expires_in: TICKET_TTL_S });
    },
  );

  app.get(
    '/api/orders/unread/stream',
    {
      schema: {
        summary: 'The caller’s unread count as server-sent events: `unread` { count } at once and on each change, `end` when a new ticket is due',
        description:
          'Opened with a ticket from POST /api/orders/unread/ticket (single use, 30 s). Sends `retry`, then `event: unread` ' +
          'with `{"count":n}` at once and whenever the count moves, `event: ping` every 20 s, and `event: end` when the ' +
          'token that bought the ticket expires (at most 5 minutes), when the instance stops, or never if the client goes first.',
        querystring: StreamTicketQuery,
        response: {
          200: { description: 'An event stream: each event as UnreadStreamEvent', content: { 'text/event-stream': { schema: UnreadStreamEvent } } },
          400: err,
          401: err,
          429: err,
          503: err,
        },
      },
    },
    async (request, reply) => {
      const stored = await deps.redis.getDel(`${TICKET_PREFIX}${hashOf(request.query.ticket)}`);
      if (!stored)
        throw unauthorized('This live-update ticket is unknown, spent or expired. Ask for a new one.', 'STREAM_TICKET_INVALID');
      const holder = JSON.parse(stored) as TicketHolder;
      const revoked = app.hasDecorator('revokedSessions') ? (app as unknown as { revokedSessions: RevokedSessions }).revokedSessions : undefined;
      if (holder.sid && (await revoked?.isRevoked(holder.sid)))
        throw unauthorized(SIGN_IN_ENDED, 'SIGN_IN_ENDED');
      const mine = byPerson.get(holder.userId);
      if ((mine?.size ?? 0) >= perPerson)
        throw new HttpError(429, problem('STREAMS_AT_ONCE', `You already have ${perPerson} live streams open; this page checks by itself.`, { max: perPerson }), {
          'retry-after': '60',
        });
      if (open >= perInstance)
        throw new HttpError(503, problem('STREAMS_FULL', 'This server holds all the live streams it takes; this page checks by itself.'), {
          'retry-after': '60',
        });

      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // nginx passes each event on at once instead of filling its buffer (docs/adr/0067).
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      response.socket?.setNoDelay(true);
      const stream: Stream = { userId: holder.userId, party: holder.party, response, lastCount: undefined, timers: [] };
      byPerson.set(holder.userId, (mine ?? new Set()).add(stream));
      open += 1;
      // The browser waits this long before it reconnects by itself (to a spent ticket: the page buys a new one).
      response.write('retry: 3000\n\n');
      // Until the token that bought the ticket expires (a few seconds at least), and never longer than maxMs.
      const lifetime = Math.min(maxMs, Math.max(5_000, holder.until - Date.now()));
      // An event, not a comment: the page's EventSource sees it, and takes a silent stream for a dead one.
      const heartbeat = setInterval(() => write(stream, 'event: ping\ndata: {}\n\n'), heartbeatMs);
      stream.timers.push(heartbeat as unknown as NodeJS.Timeout, setTimeout(() => close(stream, 'ended'), lifetime));
      response.on('close', () => close(stream, 'gone'));
      request.log.info({ userId: holder.userId, party: holder.party, lifetimeMs: lifetime, open }, 'live unread stream opened');
      await sendCount(stream).catch((error: unknown) => {
        request.log.warn({ err: error }, 'first unread count for a live stream failed; the page polls meanwhile');
      });
    },
  );

  return {
    changed(userIds) {
      const ids = [...new Set(userIds)].filter(Boolean);
      if (!ids.length) return;
      // Heard by every instance, this one included; when the bus is away, at least this instance's streams hear it.
      if (!deps.bus.signal(UNREAD_SIGNAL, { user_ids: ids })) for (const id of ids) recount(id);
    },
    get open() {
      return open;
    },
  };
}
