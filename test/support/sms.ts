// Reading the SMS the product sent, through the local SMS catcher (infra/sms-catcher/catcher.mjs), which
// speaks the provider's API to the services and keeps every message in memory (the newest 2000).

export const smsCatcherUrl = `http://127.0.0.1:${process.env.SMS_CATCHER_PORT || 8026}`;

/** One message as the catcher kept it. */
export interface Sms {
  /** The message_id the catcher answered the sender with. */
  id: string;
  /** The phone number, digits only, country code first (2348031234567). */
  to: string;
  /** The sender ID. */
  from: string;
  /** The text. */
  sms: string;
  type: string;
  channel: string;
  /** When the catcher took it (ISO 8601). */
  received_at: string;
}

const POLL_MS = 200;
const DEFAULT_TIMEOUT_MS = 20_000;

/** A request to the catcher; throws, saying what happened, unless it answers 2xx. */
async function catcher(method: string, path: string, body?: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${smsCatcherUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new Error(
      `the SMS catcher at ${smsCatcherUrl} did not answer ${method} ${path} (is it running? make up starts it): ${String(err)}`,
    );
  }
  if (!response.ok) {
    throw new Error(`the SMS catcher answered ${method} ${path} with ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  return response;
}

/** The messages kept, newest first: all of them, or only those to `to`, or only those since `since`. */
export async function listSms(to?: string, since?: Date): Promise<Sms[]> {
  const query = new URLSearchParams();
  if (to !== undefined) query.set('to', to);
  if (since !== undefined) query.set('since', since.toISOString());
  const search = query.toString();
  const path = `/api/messages${search ? `?${search}` : ''}`;
  const { messages } = (await (await catcher('GET', path)).json()) as { messages: Sms[] };
  return messages;
}

/**
 * Waits for the newest message to `to` whose text matches `match` (received at `since` or later when
 * given), asking every 200 ms for up to `timeoutMs` (20 s), and returns it. On time-out the error
 * lists what did reach that number.
 */
export async function waitForSms(to: string, match: RegExp, opts: { since?: Date; timeoutMs?: number } = {}): Promise<Sms> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let seen: Sms[] = [];
  let lastError: unknown;
  for (;;) {
    try {
      seen = await listSms(to, opts.since);
      lastError = undefined;
      // search(), not test(): a /g or /y pattern keeps no state between tries.
      const found = seen.find((message) => message.sms.search(match) !== -1);
      if (found) return found;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const since = opts.since ? ` since ${opts.since.toISOString()}` : '';
  if (lastError !== undefined) throw new Error(`no SMS to ${to} matching ${match}${since} within ${timeoutMs} ms: ${String(lastError)}`);
  const got =
    seen.length === 0
      ? 'none reached that number'
      : `that number got ${seen.length}: ${seen.map((m) => JSON.stringify(m.sms.slice(0, 80))).join(', ')}`;
  throw new Error(`no SMS to ${to} matching ${match}${since} within ${timeoutMs} ms (${got})`);
}

/** Forgets the messages kept: all of them, or only those to `to`. */
export async function clearSms(to?: string): Promise<void> {
  await catcher('DELETE', `/api/messages${to === undefined ? '' : `?${new URLSearchParams({ to })}`}`);
}

/**
 * Makes the next `count` sends fail with `status` (a provider outage), whatever they carry; 0 ends it.
 * The catcher serves every test of the run: end it (`failNextSms(0)`) in the test's clean-up.
 */
export async function failNextSms(count: number, status = 503): Promise<void> {
  await catcher('POST', '/api/catcher/fail', { count, status });
}

/** The code in a message: its first run of exactly six digits. */
export function codeFrom(sms: Sms): string {
  const code = /(?<!\d)\d{6}(?!\d)/.exec(sms.sms)?.[0];
  if (code === undefined) throw new Error(`no 6-digit code in the SMS ${sms.id} to ${sms.to}: ${JSON.stringify(sms.sms)}`);
  return code;
}
