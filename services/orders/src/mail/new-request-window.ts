// How many new-request mails one farmer gets (issue 24, docs/adr/0060): the first few of a window are
// mailed one by one, the rest of that window wait for one digest at its end. The count is one Redis hash
// per farmer, changed by one script, so two replicas handling two requests at once never both take the
// last single mail; and the verdict for each request is kept, so a redelivered event is judged as before.
import type { RedisClient } from '@tuber/kit';

export interface MailBound {
  /** Single mails per farmer per window. */
  perWindow: number;
  windowMs: number;
}

export type MailVerdict = { kind: 'single' } | { kind: 'digest'; dueAt: Date };

/** The farmer's window: `count` of new requests in it, `ends` (epoch ms); the key expires when the window ends. */
export const windowKey = (farmerId: string) => `orders:mail:window:${farmerId}`;
/** What was decided for one request ("single" or "digest:<ends>"), kept two windows long. */
export const verdictKey = (requestId: string) => `orders:mail:verdict:${requestId}`;

// KEYS[1] the farmer's window, KEYS[2] the request's verdict; ARGV: now (ms), window (ms), single mails per window.
// A window opens with the first request after the last one ended (INCR, then an expiry at its end).
const JUDGE = `
local kept = redis.call('GET', KEYS[2])
if kept then return kept end
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
local ends = tonumber(redis.call('HGET', KEYS[1], 'ends'))
if not ends then
  ends = tonumber(ARGV[1]) + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'ends', ends)
  redis.call('PEXPIREAT', KEYS[1], ends)
end
local verdict = 'single'
if count > tonumber(ARGV[3]) then verdict = 'digest:' .. ends end
redis.call('SET', KEYS[2], verdict, 'PX', 2 * tonumber(ARGV[2]))
return verdict
`;

/** Decides, once per request, whether its new-request mail goes alone or into the farmer's digest. */
export async function judgeNewRequestMail(
  redis: RedisClient,
  bound: MailBound,
  farmerId: string,
  requestId: string,
  now: Date = new Date(),
): Promise<MailVerdict> {
  const reply = await redis.eval(JUDGE, {
    keys: [windowKey(farmerId), verdictKey(requestId)],
    arguments: [String(now.getTime()), String(bound.windowMs), String(bound.perWindow)],
  });
  return parseVerdict(String(reply));
}

export function parseVerdict(reply: string): MailVerdict {
  if (reply.startsWith('digest:')) {
    const ends = Number(reply.slice('digest:'.length));
    if (Number.isFinite(ends)) return { kind: 'digest', dueAt: new Date(ends) };
  }
  return { kind: 'single' };
}
