// The live unread stream's client (docs/adr/0067): counts from `unread` events, live only while it delivers,
// the next ticket at once on `end`, back-off after failures, a silent stream taken for dead, nothing after stop.
import { describe, expect, it } from 'vitest';
import { startUnreadStream, STREAM_SILENCE_MS, type EventSourceLike } from '../../src/counters/unreadStream.js';

class FakeSource implements EventSourceLike {
  readonly listeners = new Map<string, ((event: { data?: string }) => void)[]>();
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  constructor(readonly ticket: string) {}
  addEventListener(type: string, listener: (event: { data?: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data?: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: data === undefined ? undefined : JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}

function harness(tickets: (string | Error)[]) {
  const sources: FakeSource[] = [];
  const counts: number[] = [];
  const live: boolean[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const online = new Set<() => void>();
  let bought = 0;
  const stop = startUnreadStream({
    buyTicket: async () => {
      const next = tickets[Math.min(bought++, tickets.length - 1)]!;
      if (next instanceof Error) throw next;
      return next;
    },
    open: (ticket) => {
      const source = new FakeSource(ticket);
      sources.push(source);
      return source;
    },
    setCount: (count) => counts.push(count),
    setLive: (value) => live.push(value),
    onOnline: (listener) => {
      online.add(listener);
      return () => online.delete(listener);
    },
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => void ((timer as { cleared: boolean }).cleared = true),
  });
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  /** The pending timers, shortest first; runs the first whose wait is `ms` (or throws). */
  const pending = () => timers.filter((t) => !t.cleared).sort((a, b) => a.ms - b.ms);
  const run = async (ms: number) => {
    const timer = pending().find((t) => t.ms === ms);
    if (!timer) throw new Error(`no timer of ${ms} ms; pending: ${pending().map((t) => t.ms).join(', ')}`);
    timer.cleared = true;
    timer.run();
    await flush();
  };
  return { sources, counts, live, pending, run, flush, stop, online, bought: () => bought };
}

describe('the live unread stream (ADR 0067)', () => {
  it('opens with a bought ticket, counts from `unread` events, and is live only once one came', async () => {
    const h = harness(['ticket-1']);
    await h.flush();
    expect(h.sources.map((s) => s.ticket)).toEqual(['ticket-1']);
    expect(h.live).toEqual([]);
    h.sources[0]!.emit('unread', { count: 2 });
    h.sources[0]!.emit('unread', { count: 3 });
    expect(h.counts).toEqual([2, 3]);
    expect(h.live).toEqual([true]);
  });

  it('buys the next ticket at once on `end` (the token behind the ticket expires), and is not live meanwhile', async () => {
    const h = harness(['ticket-1', 'ticket-2']);
    await h.flush();
    h.sources[0]!.emit('unread', { count: 1 });
    h.sources[0]!.emit('end', { reason: 'ended' });
    expect(h.sources[0]!.closed).toBe(true);
    expect(h.live).toEqual([true, false]);
    await h.run(0);
    expect(h.sources.map((s) => s.ticket)).toEqual(['ticket-1', 'ticket-2']);
  });

  it('backs off after failures (1 s, 2 s, 4 s …) and starts over once a stream delivers', async () => {
    const refused = new Error('404');
    const h = harness([refused, refused, 'ticket-3', 'ticket-4']);
    await h.flush();
    expect(h.pending().map((t) => t.ms)).toEqual([2_000]);
    await h.run(2_000);
    expect(h.pending().map((t) => t.ms)).toEqual([4_000]);
    await h.run(4_000);
    expect(h.sources).toHaveLength(1);
    // The browser refuses the open (a spent ticket, a 429): back off again, from the failures so far.
    h.sources[0]!.onerror?.({});
    expect(h.sources[0]!.closed).toBe(true);
    expect(h.pending().map((t) => t.ms)).toEqual([8_000]);
    await h.run(8_000);
    h.sources[1]!.emit('unread', { count: 0 });
    h.sources[1]!.onerror?.({});
    expect(h.pending().map((t) => t.ms)).toEqual([2_000]);
  });

  it('takes a stream silent for 50 s (no ping, no count) for a dead one, and opens another', async () => {
    const h = harness(['ticket-1', 'ticket-2']);
    await h.flush();
    h.sources[0]!.emit('unread', { count: 1 });
    h.sources[0]!.emit('ping', {});
    expect(h.pending().map((t) => t.ms)).toEqual([STREAM_SILENCE_MS]);
    await h.run(STREAM_SILENCE_MS);
    expect(h.sources[0]!.closed).toBe(true);
    expect(h.live).toEqual([true, false]);
    await h.run(1_000);
    expect(h.sources).toHaveLength(2);
  });

  it('tries again at once when the phone is back online', async () => {
    const h = harness([new Error('offline'), 'ticket-2']);
    await h.flush();
    expect(h.sources).toHaveLength(0);
    for (const listener of h.online) listener();
    await h.flush();
    expect(h.sources.map((s) => s.ticket)).toEqual(['ticket-2']);
  });

  it('after stop: the stream is closed, nothing is bought, counted or retried', async () => {
    const h = harness(['ticket-1', 'ticket-2']);
    await h.flush();
    const first = h.sources[0]!;
    h.stop();
    expect(first.closed).toBe(true);
    first.emit('unread', { count: 9 });
    first.emit('end', {});
    for (const listener of h.online) listener();
    await h.flush();
    expect(h.counts).toEqual([]);
    expect(h.pending()).toEqual([]);
    expect(h.bought()).toBe(1);
  });
});
