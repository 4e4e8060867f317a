// The live unread count (issue 25, docs/adr/0067): a ticket bought with the token opens a server-sent event
// stream once; a request sent to the farmer reaches the farmer's open stream within 3 s, through the gateway
// (nginx must not buffer it) and on another instance (the signal crosses NATS); spent and unknown tickets,
// too many streams and a stream's end. Against the running stack and an in-process instance beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { OrdersConfig } from '../../src/config.js';
import { api } from '../../../../test/support/api.js';
import { serviceEnv } from '../../../../test/support/env.js';
import type { TestAccount } from '../../../../test/support/accounts.js';
import { act, buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

const gateway = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');

interface SseEvent {
  event: string;
  data: string;
  at: number;
}

/** An open event stream: its events as they come, parsed as the browser's EventSource would. */
interface OpenStream {
  status: number;
  contentType: string | null;
  body: unknown;
  events: SseEvent[];
  next(name: string, timeoutMs?: number, after?: number): Promise<SseEvent>;
  close(): void;
}

async function openStream(base: string, ticket: string): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`${base}/api/orders/unread/stream?ticket=${encodeURIComponent(ticket)}`, {
    headers: { accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const contentType = response.headers.get('content-type');
  let body: unknown;
  if (response.status === 200) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((line) => line && !line.startsWith(':'))
                .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
            );
            if (fields.data !== undefined || fields.event) events.push({ event: fields.event ?? 'message', data: fields.data ?? '', at: Date.now() });
            for (const wake of waiters) wake();
          }
        }
      } catch {
        // aborted
      }
      events.push({ event: '(closed)', data: '', at: Date.now() });
      for (const wake of waiters) wake();
    })();
  } else body = await response.json();
  return {
    status: response.status,
    contentType,
    body,
    events,
    async next(name, timeoutMs = 5_000, after = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((e, i) => i >= after && e.event === name);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no "${name}" event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 100);
        });
      }
    },
    close: () => abort.abort(),
  };
}

const buyTicket = async (account: TestAccount, base = gateway) => {
  const answer = await fetch(`${base}/api/orders/unread/ticket`, { method: 'POST', headers: { authorization: `Bearer ${account.accessToken}` } });
  expect(answer.status).toBe(201);
  const body = (await answer.json()) as { ticket: string; expires_in: number };
  expect(body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(body.expires_in).toBe(30);
  return body.ticket;
};

const count = (event: SseEvent) => (JSON.parse(event.data) as { count: number }).count;

let farmer: TestAccount;
let buyer: TestAccount;
let product: Posted;
let local: ServiceApp;
let localUrl: string;
const streams: OpenStream[] = [];

beforeAll(async () => {
  [farmer, buyer] = await Promise.all([farmerWithProfile(), buyerWithProfile()]);
  product = await newProduct(farmer);
  // A second instance beside the running one: small bounds, so that a stream's end and the per-person limit show quickly.
  local = await buildApp(loadConfig(OrdersConfig, { ...serviceEnv('orders') }), {
    events: false,
    streamLimits: { perPerson: 2, maxMs: 4_000, heartbeatMs: 1_000 },
  });
  await local.listen({ host: '127.0.0.1', port: 0 });
  const address = local.server.address();
  localUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  // Every stream is ended and its socket closed at shutdown, yet the test's HTTP client keeps one connection
  // to this in-process copy that the server counts as busy: without this, close() waits for its keep-alive
  // (about 70 s). Not understood yet (see the closing note of issue 25).
  const closing = local?.close();
  setTimeout(() => local?.server.closeAllConnections(), 1_500).unref();
  await closing;
});

describe('the live unread stream (ADR 0067)', () => {
  it('through the gateway: the count at once, and a new request within 3 s, unbuffered', async () => {
    const stream = await openStream(gateway, await buyTicket(farmer));
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const first = await stream.next('unread');
    const before = count(first);

    const sentAt = Date.now();
    const sent = await sendWhenKnown(buyer, requestBody(farmer, [{ product, quantity: 1 }]));
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const moved = await stream.next('unread', 3_000, stream.events.indexOf(first) + 1);
    expect(count(moved)).toBe(before + 1);
    const latency = moved.at - sentAt;
    console.log(`new request → farmer's stream: ${latency} ms`);
    expect(latency).toBeLessThan(3_000);

    // Opening it drops the count on the farmer's stream too (their other tabs).
    const read = await api('POST', `/api/orders/requests/${sent.body.request_id}/read`, { token: farmer.accessToken, json: {} });
    expect(read.status).toBe(200);
    const dropped = await stream.next('unread', 3_000, stream.events.indexOf(moved) + 1);
    expect(count(dropped)).toBe(before);
    stream.close();
  });

  it('on another instance: the running service’s change reaches it over NATS, to the buyer this time', async () => {
    const sent = await sendWhenKnown(buyer, requestBody(farmer, [{ product, quantity: 1 }]));
    expect(sent.status).toBe(201);
    const stream = await openStream(localUrl, await buyTicket(buyer));
    streams.push(stream);
    const first = await stream.next('unread');
    const before = count(first);
    // Accepted through the gateway: the running instance writes it and signals every instance.
    const accepted = await act(farmer, sent.body.request_id, 'accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const moved = await stream.next('unread', 3_000, stream.events.indexOf(first) + 1);
    expect(count(moved)).toBe(before + 1);
    stream.close();
  });

  it('spends a ticket on first use; an unknown one is 401 STREAM_TICKET_INVALID, a malformed one 400', async () => {
    const ticket = await buyTicket(buyer);
    const first = await openStream(gateway, ticket);
    streams.push(first);
    expect(first.status).toBe(200);
    const again = await openStream(gateway, ticket);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'STREAM_TICKET_INVALID', status: 401 });
    const unknown = await openStream(gateway, 'A'.repeat(43));
    expect(unknown.status).toBe(401);
    const malformed = await openStream(gateway, 'not a ticket');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    first.close();
  });

  it('sells no ticket without a sign-in', async () => {
    const answer = await fetch(`${gateway}/api/orders/unread/ticket`, { method: 'POST' });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { code: string }).code).toMatch(/^(SIGN_IN_REQUIRED|TOKEN_INVALID)$/);
  });

  it('holds a few streams per person (the next is 429 STREAMS_AT_ONCE), pings, and ends each with `end` in time', async () => {
    const a = await openStream(localUrl, await buyTicket(farmer));
    const b = await openStream(localUrl, await buyTicket(farmer));
    streams.push(a, b);
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await openStream(localUrl, await buyTicket(farmer));
    expect(c.status).toBe(429);
    expect(c.body).toMatchObject({ code: 'STREAMS_AT_ONCE', params: { max: 2 } });
    await a.next('ping', 3_000);
    // maxMs 4 s is shorter than any token here: the stream says `end`, then closes.
    const ended = await a.next('end', 8_000);
    expect(JSON.parse(ended.data)).toEqual({ reason: 'ended' });
    await a.next('(closed)', 2_000);
    b.close();
    // Both gone: the person may open streams again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const d = await openStream(localUrl, await buyTicket(farmer));
    streams.push(d);
    expect(d.status).toBe(200);
    d.close();
  });
});
