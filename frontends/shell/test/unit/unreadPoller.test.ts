import { describe, expect, it } from 'vitest';
import { type ApiClient } from '@tuber/shell-contract';
import { createApiClient } from '@tuber/ui';
import { fetchUnreadCount, startUnreadPoller, UNREAD_POLL_MS, WAKE_GAP_MS } from '../../src/counters/unreadPoller.js';

/** A stand-in for the orders service behind the API client: answers what the test says, counts the calls. */
function fakeOrdersApi() {
  const answers: (number | Error)[] = [];
  const paths: string[] = [];
  let pending: ((value: void) => void) | null = null;
  let hold = false;
  const api: Pick<ApiClient, 'get'> = {
    async get<T>(path: string): Promise<T> {
      paths.push(path);
      if (hold) await new Promise<void>((resolve) => (pending = resolve));
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      if (answer instanceof Error) throw answer;
      return { count: answer ?? 0 } as T;
    },
  };
  return {
    api,
    paths,
    answer: (...next: (number | Error)[]) => answers.splice(0, answers.length, ...next),
    hold: () => void (hold = true),
    release: () => {
      hold = false;
      pending?.();
      pending = null;
    },
  };
}

function harness() {
  const orders = fakeOrdersApi();
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const wake = new Set<() => void>();
  const refresh = new Set<() => void>();
  const counts: number[] = [];
  let clock = 1_000_000;
  let visible = true;
  const stop = () =>
    startUnreadPoller({
      fetchCount: () => fetchUnreadCount(orders.api),
      setCount: (count) => counts.push(count),
      isVisible: () => visible,
      onWake: (listener) => (wake.add(listener), () => wake.delete(listener)),
      onRefresh: (listener) => (refresh.add(listener), () => refresh.delete(listener)),
      now: () => clock,
      setTimer: (run, ms) => {
        const timer = { run, ms, cleared: false };
        timers.push(timer);
        return timer;
      },
      clearTimer: (timer) => void ((timer as { cleared: boolean }).cleared = true),
    });
  const live = () => timers.filter((timer) => !timer.cleared);
  return {
    orders,
    counts,
    start: stop,
    live,
    /** Runs the pending 30 s timer, as if 30 s went by. */
    tick: () => {
      clock += UNREAD_POLL_MS;
      const timer = live().at(-1)!;
      timer.cleared = true;
      timer.run();
    },
    advance: (ms: number) => void (clock += ms),
    wake: () => wake.forEach((listener) => listener()),
    refresh: () => refresh.forEach((listener) => listener()),
    setVisible: (value: boolean) => void (visible = value),
    listeners: () => wake.size + refresh.size,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the unread-requests poller (issue 12)', () => {
  it('asks GET /api/orders/unread at once, then every 30 s while the tab is visible', async () => {
    const h = harness();
    h.orders.answer(2, 3);
    h.start();
    await settle();
    expect(h.orders.paths).toEqual(['/orders/unread']);
    expect(h.counts).toEqual([2]);
    expect(h.live().map((timer) => timer.ms)).toEqual([UNREAD_POLL_MS]);
    h.tick();
    await settle();
    expect(h.counts).toEqual([2, 3]);
    expect(h.live()).toHaveLength(1);
  });

  it('does not ask while the tab is hidden, and asks at once when it comes back', async () => {
    const h = harness();
    h.orders.answer(1, 4);
    h.start();
    await settle();
    h.setVisible(false);
    h.tick();
    h.tick();
    await settle();
    expect(h.orders.paths).toHaveLength(1);
    h.setVisible(true);
    h.wake();
    await settle();
    expect(h.orders.paths).toHaveLength(2);
    expect(h.counts).toEqual([1, 4]);
  });

  it('asks once for focus and visibilitychange fired together, and again on a later wake', async () => {
    const h = harness();
    h.start();
    await settle();
    h.advance(WAKE_GAP_MS + 1);
    h.wake();
    h.wake();
    await settle();
    expect(h.orders.paths).toHaveLength(2);
    h.advance(WAKE_GAP_MS + 1);
    h.wake();
    await settle();
    expect(h.orders.paths).toHaveLength(3);
  });

  it("asks at once on refreshCounter('unread'), and once more when it came during a poll (that answer may be stale)", async () => {
    const h = harness();
    h.orders.answer(5, 5, 0);
    h.start();
    await settle();
    h.orders.hold();
    h.refresh();
    h.refresh();
    h.orders.release();
    await settle();
    await settle();
    expect(h.orders.paths).toHaveLength(3);
    expect(h.counts.at(-1)).toBe(0);
    expect(h.live()).toHaveLength(1); // one clock, not one per poll
  });

  it('keeps the last count quietly when a poll fails (service down, answer without a count)', async () => {
    const h = harness();
    h.orders.answer(3, new Error('Request failed with status 503'), 3);
    h.start();
    await settle();
    h.tick();
    await settle();
    expect(h.counts).toEqual([3]);
    expect(h.live()).toHaveLength(1); // still polling
    h.tick();
    await settle();
    expect(h.counts).toEqual([3, 3]);
  });

  it('reads a failed answer of the real API client as a failure, not as 0', async () => {
    const api = createApiClient({
      baseUrl: '/api',
      fetch: async () =>
        new Response(JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'orders is starting' }), { status: 503 }),
    });
    await expect(fetchUnreadCount(api)).rejects.toThrow('orders is starting');
    const empty = createApiClient({ baseUrl: '/api', fetch: async () => new Response('', { status: 200 }) });
    await expect(fetchUnreadCount(empty)).rejects.toThrow('without a count');
  });

  it('stops on logout: no timer, no listeners, and an answer still on its way changes nothing', async () => {
    const h = harness();
    h.orders.answer(7);
    h.orders.hold();
    const stop = h.start();
    stop();
    h.orders.release();
    await settle();
    expect(h.counts).toEqual([]);
    expect(h.live()).toHaveLength(0);
    expect(h.listeners()).toBe(0);
    h.refresh();
    h.wake();
    await settle();
    expect(h.orders.paths).toHaveLength(1);
  });
});
