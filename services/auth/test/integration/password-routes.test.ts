// Forgot password, resend verification and reset password through the routes, against the real
// Keycloak, Redis and Mailpit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Socket } from 'node:net';
import { closeRedis, connectRedis, type RedisClient } from '@tuber/kit';
import { redisUrl } from '../../../../test/support/credentials.js';
import { ResetTokens } from '../../src/domain/reset-tokens.js';
import { PASSWORD_IS_EMAIL, PASSWORD_TOO_COMMON } from '../../src/domain/signup.js';
import { createAccount, deleteAccount } from '../../../../test/support/accounts.js';
import { signInWithPassword } from '../../../../test/support/keycloak.js';
import { firstLink, mailCount, waitForMail } from '../../../../test/support/mail.js';
import { authApp, closedPort, commonPassword, post, resetTokenMailedTo, uniqueEmail, type TestApp } from './support.js';

const RESET_LINK_SENT = 'Password reset link sent to your email!';
const VERIFICATION_RESENT = 'Verification email resent! Please check your inbox.';
const NO_ACTIVE_SESSION = 'No active session. Please request a new reset link.';
const PASSWORD_UPDATED = 'Password updated successfully!';

let auth: TestApp;
let redis: RedisClient;
let emptyList: string;
const created: string[] = [];
beforeAll(async () => {
  auth = await authApp();
  emptyList = join(await mkdtemp(join(tmpdir(), 'auth-test-')), 'no-passwords.txt');
  await writeFile(emptyList, '');
  redis = await connectRedis(redisUrl('auth'));
});
afterAll(async () => {
  await auth?.app.close();
  if (redis) await closeRedis(redis);
  await Promise.all(created.map(deleteAccount));
});

async function account(options: { verified?: boolean } = {}) {
  const made = await createAccount({ role: 'buyer', ...options });
  created.push(made.id);
  return made;
}

async function mailedResetToken(email: string, seen: string[] = []) {
  expect((await post(auth.app, '/api/auth/password/forgot', { email })).statusCode).toBe(202);
  await auth.background.settled();
  return (await resetTokenMailedTo(email, seen)).token;
}

const check = (token: string) => post(auth.app, '/api/auth/password/reset/check', { token });
const reset = (token: string, password: string, app = auth.app) =>
  post(app, '/api/auth/password/reset', { token, password, confirm_password: password });

describe('POST /api/auth/password/forgot', () => {
  it('mails an existing account a link that works for 30 minutes', async () => {
    const { email } = await account();
    const answer = await post(auth.app, '/api/auth/password/forgot', { email: email.toUpperCase() });
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 202, body: { message: RESET_LINK_SENT } });
    const { token, text } = await resetTokenMailedTo(email);
    expect(text).toContain('for 30 minutes');
    expect((await check(token)).statusCode).toBe(200);
  });

  it('answers an unknown e-mail exactly the same way, and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const answer = await post(auth.app, '/api/auth/password/forgot', { email });
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 202, body: { message: RESET_LINK_SENT } });
    await auth.background.settled();
    expect(await mailCount(email)).toBe(0);
  });

  it('names a malformed e-mail', async () => {
    const answer = await post(auth.app, '/api/auth/password/forgot', { email: 'not-an-email' });
    expect({ status: answer.statusCode, message: answer.json().message }).toEqual({
      status: 400,
      message: 'Enter a valid e-mail address.',
    });
  });

  it('answers at once while the mail server hangs, then logs the failed mail with the account', async () => {
    // A mail server that accepts the connection and never says a word.
    const sockets = new Set<Socket>();
    const smtp = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const stuck = await authApp({ SMTP_PORT: String((smtp.address() as { port: number }).port) });
    try {
      const known = await account();
      for (const email of [known.email, uniqueEmail('nobody')]) {
        const started = Date.now();
        const answer = await post(stuck.app, '/api/auth/password/forgot', { email });
        expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 202, body: { message: RESET_LINK_SENT } });
        expect(Date.now() - started).toBeLessThan(1_000);
      }
      await expect.poll(() => sockets.size).toBe(1);
      expect(stuck.errors).toEqual([]);

      // The server goes away: the send fails after the answer, and is logged rather than thrown.
      for (const socket of sockets) socket.destroy();
      await stuck.background.settled();
      expect(stuck.errors).toEqual([
        {
          message: 'password reset mail failed',
          fields: expect.objectContaining({ email: known.email, userId: known.id, err: expect.any(Error) }),
        },
      ]);
    } finally {
      await stuck.app.close();
      smtp.close();
    }
  });
});

describe('POST /api/auth/verification/resend', () => {
  it("sends Keycloak's verification mail again to an unverified account", async () => {
    const { email } = await account({ verified: false });
    const answer = await post(auth.app, '/api/auth/verification/resend', { email });
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 202, body: { message: VERIFICATION_RESENT } });
    const mail = await waitForMail(email, /verif/i);
    expect(firstLink(mail.text || mail.html, 'action-token')).toBeDefined();
  });

  it('answers unknown and already verified e-mails exactly the same way, and sends nothing', async () => {
    const verified = await account({ verified: true });
    for (const email of [uniqueEmail('nobody'), verified.email]) {
      const answer = await post(auth.app, '/api/auth/verification/resend', { email });
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 202, body: { message: VERIFICATION_RESENT } });
    }
    await auth.background.settled();
    expect(await mailCount(verified.email)).toBe(0);
  });
});

describe('forgot and resend while Keycloak cannot be reached', () => {
  it('answer as usual and log what could not be done', async () => {
    const down = await authApp({ KEYCLOAK_URL: `http://127.0.0.1:${await closedPort()}/auth` });
    try {
      const email = uniqueEmail('buyer');
      const forgot = await post(down.app, '/api/auth/password/forgot', { email });
      const resend = await post(down.app, '/api/auth/verification/resend', { email });
      expect([forgot.statusCode, resend.statusCode]).toEqual([202, 202]);
      await down.background.settled();
      expect(down.errors.map((e) => [e.message, e.fields.email])).toEqual([
        ['password reset mail failed', email],
        ['verification mail failed', email],
      ]);
    } finally {
      await down.app.close();
    }
  });
});

describe('POST /api/auth/password/reset', () => {
  it('sets the password and spends the link', async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    const answer = await reset(token, 'new-secret-1');
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 200, body: { message: PASSWORD_UPDATED } });
    expect((await signInWithPassword(email, 'new-secret-1')).accessToken).toBeTruthy();
    expect((await reset(token, 'new-secret-2')).json().message).toBe(NO_ACTIVE_SESSION);
    expect((await check(token)).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
  });

  it('refuses an expired link', async () => {
    const { id } = await account();
    const token = await new ResetTokens(redis, 1).issue(id);
    expect((await check(token)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await check(token)).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
    expect((await reset(token, 'new-secret-1')).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
  });

  it('refuses a tampered link, and the real one still works', async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    const flipped = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const tampered of [flipped, `${token}A`, token.slice(0, -1), 'x'.repeat(43)]) {
      expect((await check(tampered)).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
      expect((await reset(tampered, 'new-secret-1')).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
    }
    expect((await reset(token, 'new-secret-1')).statusCode).toBe(200);
  });

  it("keeps the link when the passwords differ or are too short (the spec's messages)", async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    const mismatch = await post(auth.app, '/api/auth/password/reset', {
      token,
      password: 'new-secret-1',
      confirm_password: 'new-secret-2',
    });
    expect({ status: mismatch.statusCode, message: mismatch.json().message }).toEqual({ status: 400, message: 'Passwords do not match!' });
    expect((await reset(token, 'abc1234')).json()).toMatchObject({
      statusCode: 400,
      message: 'Password must be at least 8 characters long',
    });
    const common = await commonPassword();
    expect((await reset(token, common)).json()).toMatchObject({ statusCode: 400, message: PASSWORD_TOO_COMMON });
    expect((await check(token)).statusCode).toBe(200);
  });

  it("keeps the link usable when Keycloak's password policy refuses the password", async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    // The realm's notEmail policy: the address itself is refused by Keycloak, not by our own rules.
    const refused = await reset(token, email);
    expect({ status: refused.statusCode, message: refused.json().message }).toEqual({ status: 400, message: PASSWORD_IS_EMAIL });
    expect((await check(token)).statusCode).toBe(200);
    expect((await reset(token, 'new-secret-1')).statusCode).toBe(200);
    expect((await signInWithPassword(email, 'new-secret-1')).accessToken).toBeTruthy();
  });

  it("words Keycloak's refusal of a common password, and keeps the link", async () => {
    // An app without its own copy of the list: the refusal comes from the realm's passwordBlacklist policy.
    const listless = await authApp({ PASSWORD_BLOCKLIST_FILE: emptyList });
    try {
      const { email } = await account();
      const token = await mailedResetToken(email);
      const refused = await reset(token, await commonPassword(), listless.app);
      expect({ status: refused.statusCode, message: refused.json().message }).toEqual({ status: 400, message: PASSWORD_TOO_COMMON });
      expect((await check(token)).statusCode).toBe(200);
    } finally {
      await listless.app.close();
    }
  });

  it('mails the owner that the password was changed, with what to do if it was not them', async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    expect((await reset(token, 'new-secret-1')).statusCode).toBe(200);
    await auth.background.settled();
    const mail = await waitForMail(email, /password was changed/);
    expect(mail.subject).toBe('Your Tuber Market password was changed');
    expect(mail.text).toContain('If it was not you');
    expect(firstLink(mail.text, '/forgot-password')).toBeDefined();
  });

  it('sends no "changed" mail when the reset is refused', async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    expect((await reset(token, email)).statusCode).toBe(400); // Keycloak's notEmail policy
    await auth.background.settled();
    expect(await mailCount(email)).toBe(1); // the reset link only
  });

  it('keeps the link usable when Keycloak cannot be reached', async () => {
    const { id } = await account();
    const token = await new ResetTokens(redis).issue(id);
    const down = await authApp({ KEYCLOAK_URL: `http://127.0.0.1:${await closedPort()}/auth` });
    try {
      const failed = await reset(token, 'new-secret-1', down.app);
      expect({ status: failed.statusCode, message: failed.json().message }).toEqual({
        status: 500,
        message: 'Something went wrong on our side. Please try again.',
      });
    } finally {
      await down.app.close();
    }
    expect((await check(token)).statusCode).toBe(200);
    expect((await reset(token, 'new-secret-1')).statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous resets with the same link succeed', async () => {
    const { email } = await account();
    const token = await mailedResetToken(email);
    const answers = await Promise.all([reset(token, 'first-secret'), reset(token, 'second-secret')]);
    const [winner, loser] = answers[0].statusCode === 200 ? answers : [answers[1], answers[0]];
    expect(winner!.statusCode).toBe(200);
    // The loser either ran into the reset under way or came after it had spent the link.
    expect([
      [409, "This account's password is being changed right now. Please wait a moment and try again."],
      [400, NO_ACTIVE_SESSION],
    ]).toContainEqual([loser!.statusCode, loser!.json().message]);
    expect((await check(token)).statusCode).toBe(400);
  });

  it('spends every other link of the account, though asking again had not cancelled them', async () => {
    const { id, email } = await account();
    const first = await mailedResetToken(email);
    // A second request within the mail cooldown mails nothing: its link is issued directly.
    const second = await new ResetTokens(redis).issue(id);
    expect(second).not.toBe(first);
    expect((await check(first)).statusCode).toBe(200);
    expect((await check(second)).statusCode).toBe(200);

    expect((await reset(second, 'new-secret-1')).statusCode).toBe(200);
    expect((await check(first)).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
    expect((await reset(first, 'attacker-secret')).json()).toMatchObject({ statusCode: 400, message: NO_ACTIVE_SESSION });
    expect((await signInWithPassword(email, 'new-secret-1')).accessToken).toBeTruthy();
  });

  it('does not touch the links of other accounts', async () => {
    const [one, other] = await Promise.all([account(), account()]);
    const [oneToken, otherToken] = await Promise.all([mailedResetToken(one.email), mailedResetToken(other.email)]);
    expect((await reset(oneToken, `pw-${randomUUID()}`)).statusCode).toBe(200);
    expect((await check(otherToken)).statusCode).toBe(200);
  });
});
