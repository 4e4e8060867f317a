// The unread count, live (issue 25, docs/adr/0067): the shell buys a single-use ticket with the person's
// token (POST /api/orders/unread/ticket) and opens GET /api/orders/unread/stream?ticket=… with EventSource,
// which can send no Authorization header. The token never goes in a URL.
//
// While the stream is live the poller (unreadPoller.ts) stays quiet; whenever it is not (an orders service
// without the stream, a proxy that closes it, the phone offline, the browser without EventSource) the
// poller carries on as before. The server ends each stream when the token that bought it expires (`end`):
// the shell then buys the next ticket at once, with the token the shell keeps fresh.
import type { ApiClient } from '@tuber/shell-contract';

/** No event (the server sends `ping` every 20 s) for this long: the stream is dead, though the socket may not know. */
export const STREAM_SILENCE_MS = 50_000;
/** Waits between failed attempts: 1 s, 2 s, 4 s … up to this. */
export const STREAM_RETRY_MAX_MS = 5 * 60_000;

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: string }) => void): void;
  close(): void;
  onerror: ((event: unknown) => void) | null;
}

export interface UnreadStreamOptions {
  /** POST /api/orders/unread/ticket → the ticket. */
  buyTicket(): Promise<string>;
  /** Opens the stream for a ticket (new EventSource(url)). */
  open(ticket: string): EventSourceLike;
  setCount(count: number): void;
  /** Called with true when the stream delivers, false when it stops: the poller polls only while false. */
  setLive(live: boolean): void;
  /** Calls `listener` when the browser says it is online again; returns the unsubscribe. */
  onOnline?(listener: () => void): () => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** Starts at once; returns stop(), after which nothing changes the count or the live flag. */
export function startUnreadStream(options: UnreadStreamOptions): () => void {
  const { buyTicket, open, setCount, setLive } = options;
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let stopped = false;
  let source: EventSourceLike | undefined;
  let retryTimer: unknown;
  let silenceTimer: unknown;
  let failures = 0;
  let live = false;
  let connecting = false;

  const markLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    setLive(value);
  };

  const watchSilence = () => {
    if (silenceTimer !== undefined) clearTimer(silenceTimer);
    silenceTimer = setTimer(() => {
      silenceTimer = undefined;
      drop(true);
    }, STREAM_SILENCE_MS);
  };

  /** Closes the stream; `again`: try again after the back-off (at once after a clean `end`). */
  function drop(again: boolean, at = Math.min(STREAM_RETRY_MAX_MS, 1_000 * 2 ** failures)) {
    source?.close();
    source = undefined;
    if (silenceTimer !== undefined) clearTimer(silenceTimer);
    silenceTimer = undefined;
    markLive(false);
    if (!again || stopped) return;
    if (retryTimer !== undefined) clearTimer(retryTimer);
    retryTimer = setTimer(() => {
      retryTimer = undefined;
      void connect();
    }, at);
  }

  async function connect(): Promise<void> {
    if (stopped || source || connecting) return;
    connecting = true;
    let ticket: string;
    try {
      ticket = await buyTicket();
    } catch {
      // Offline, signed out meanwhile, or an orders service without live counts: poll, and try later.
      connecting = false;
      failures += 1;
      drop(true);
      return;
    }
    connecting = false;
    if (stopped) return;
    const opened = open(ticket);
    source = opened;
    watchSilence();
    opened.addEventListener('unread', (event) => {
      if (source !== opened) return;
      const count = (JSON.parse(event.data ?? '{}') as { count?: unknown }).count;
      if (typeof count === 'number' && Number.isFinite(count)) setCount(count);
      failures = 0;
      markLive(true);
      watchSilence();
    });
    opened.addEventListener('ping', () => {
      if (source === opened) watchSilence();
    });
    // The token behind this ticket is about to expire, or the instance stops: the next ticket, at once.
    opened.addEventListener('end', () => {
      if (source === opened) drop(true, 0);
    });
    // A refused open (a spent ticket on the browser's own reconnect, a 429 or 503) or a dropped connection.
    opened.onerror = () => {
      if (source !== opened) return;
      failures += 1;
      drop(true);
    };
  }

  const stopOnline = options.onOnline?.(() => {
    if (stopped || source) return;
    failures = 0;
    if (retryTimer !== undefined) clearTimer(retryTimer);
    retryTimer = undefined;
    void connect();
  });
  void connect();

  return () => {
    stopped = true;
    stopOnline?.();
    if (retryTimer !== undefined) clearTimer(retryTimer);
    retryTimer = undefined;
    drop(false);
  };
}

/** POST /api/orders/unread/ticket (StreamTicket in contracts/src/orders.ts). */
export async function buyStreamTicket(api: Pick<ApiClient, 'post'>): Promise<string> {
  const answer = await api.post<{ ticket?: unknown }>('/orders/unread/ticket');
  if (typeof answer?.ticket !== 'string') throw new Error('POST /api/orders/unread/ticket answered without a ticket');
  return answer.ticket;
}

/** The browser's EventSource on the gateway's address, or undefined where there is none (the poller carries on). */
export function browserStreamOpener(): ((ticket: string) => EventSourceLike) | undefined {
  if (typeof EventSource === 'undefined') return undefined;
  return (ticket) => new EventSource(`/api/orders/unread/stream?ticket=${encodeURIComponent(ticket)}`) as unknown as EventSourceLike;
}
