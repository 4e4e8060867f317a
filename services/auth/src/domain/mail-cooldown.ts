// One mail per address per cooldown, whatever route asks for it (sign-up, resend verification,
// forgot password): a stranger can make the auth service write to anyone's inbox, and this keeps
// that to one mail a minute. The routes' answers do not change; only the mail is not sent.
// The key is a hash of the address, so Redis holds no list of addresses.
//
//   auth:mail:cooldown:<sha256(address)>  → "1", EX cooldown
import { createHash } from 'node:crypto';
import type { RedisClient } from '@tuber/kit';

export const MAIL_COOLDOWN_SECONDS = 60;

const key = (email: string) => `auth:mail:cooldown:${createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex')}`;

export class MailCooldown {
  constructor(
    private readonly redis: RedisClient,
    private readonly seconds = MAIL_COOLDOWN_SECONDS,
  ) {}

  /**
   * True if a mail to `email` may go now (and starts the cooldown), false while an earlier mail's
   * cooldown runs. Throws if Redis cannot be asked: then no mail goes (closed, not open).
   */
  async claim(email: string): Promise<boolean> {
    return (await this.redis.set(key(email), '1', { expiration: { type: 'EX', value: this.seconds }, condition: 'NX' })) === 'OK';
  }

  /** Gives the address its turn back (a mail that was claimed could not be sent). */
  async release(email: string): Promise<void> {
    await this.redis.del(key(email));
  }

  /**
   * Runs `send` if the address's turn is free, taking it. If `send` fails the turn is given back
   * (the mail did not go, so the next request may send it) and the error goes on. False: cooling down.
   */
  async sendOnce(email: string, send: () => Promise<void>): Promise<boolean> {
    if (!(await this.claim(email))) return false;
    try {
      await send();
    } catch (err) {
      await this.release(email).catch(() => undefined);
      throw err;
    }
    return true;
  }
}
