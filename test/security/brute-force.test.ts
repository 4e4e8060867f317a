// Password guessing on one account (issue 24, docs/adr/0062). A stranger who knows an e-mail address
// posts wrong passwords to Keycloak's sign-in form. Keycloak's temporary lockout slows the stranger:
// after a few failures it checks no password of that account for a while, so guesses stop counting.
// The lock is the stranger's problem, not the owner's:
// - the owner's phone, signed in before with "Remember me", comes back without the form, and the
//   owner's running session goes on refreshing;
// - the owner's e-mailed reset link sets a new password and ends the lockout at once.
// - the reset also ends every sign-in from before it: their access tokens are refused at once.
// Before, the reset left the lock in place: ten wrong passwords every few minutes kept the owner out,
// whatever they did (the last case failed on that code: still locked after the reset), and the old
// sign-ins' access tokens went on working for up to 5 minutes.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { KeycloakBrowser, refreshTokens, refusalOf, type Tokens } from '../support/keycloak.js';
import { firstLink, waitForMail } from '../support/mail.js';
import { call, KEYCLOAK_DIRECT } from './support/stack.js';
import { denialChecked } from './support/tally.js';

async function admin() {
  const client = new KcAdminClient({ baseUrl: KEYCLOAK_DIRECT, realmName: 'tuber' });
  await client.auth({ grantType: 'client_credentials', clientId: 'tuber-auth', clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '' });
  return client;
}

/** Keycloak's brute-force record of one account: failures counted, and whether it is locked now. */
async function lockoutOf(id: string): Promise<{ numFailures: number; disabled: boolean }> {
  const record = (await (await admin()).attackDetection.findOne({ id })) ?? {};
  return { numFailures: Number(record.numFailures ?? 0), disabled: record.disabled === true };
}

/** A stranger's wrong passwords, one after another, until Keycloak locks the account. */
async function guessUntilLocked(email: string, id: string): Promise<void> {
  const stranger = new KeycloakBrowser();
  for (let guess = 0; guess < 12 && !(await lockoutOf(id)).disabled; guess++) {
    const opened = await stranger.authorize();
    await stranger.submit(opened.action!, email, `guess-${randomUUID()}`);
  }
  expect((await lockoutOf(id)).disabled, 'locked by the guesses').toBe(true);
}

let owner: { id: string; email: string; password: string };
let ownerPhone: KeycloakBrowser;
let ownerSession: Tokens;

beforeAll(async () => {
  owner = await createAccount({ role: 'buyer' });
  ownerPhone = new KeycloakBrowser();
  ownerSession = await ownerPhone.signIn(owner.email, owner.password, { rememberMe: true });
}, 60_000);

afterAll(async () => {
  if (owner) await deleteAccount(owner.id);
});

describe("a stranger guessing one account's password", () => {
  it('is slowed: after a few wrong passwords, Keycloak checks none of them for a while', async () => {
    const stranger = new KeycloakBrowser();
    const started = Date.now();
    let refused = 0;
    for (let guess = 0; guess < 12; guess++) {
      const opened = await stranger.authorize();
      expect(opened.action, `login form, guess ${guess}`).toBeDefined();
      const answer = await stranger.submit(opened.action!, owner.email, `guess-${randomUUID()}`);
      expect(answer.code, 'a wrong password never signs in').toBeUndefined();
      // Keycloak answers a locked account exactly as a wrong password: the stranger learns nothing.
      expect(refusalOf(answer.page, answer.status)).toBe('Invalid email or password.');
      refused += 1;
    }
    const record = await lockoutOf(owner.id);
    expect(record.disabled, JSON.stringify(record)).toBe(true);
    // Twelve guesses in a few seconds, yet far fewer checked: the rest met the lock.
    expect(record.numFailures).toBeGreaterThanOrEqual(1);
    expect(record.numFailures).toBeLessThan(refused);

    // Even the right password, from a browser Keycloak does not know, is refused while the lock lasts.
    const opened = await stranger.authorize();
    const right = await stranger.submit(opened.action!, owner.email, owner.password);
    expect(right.code).toBeUndefined();
    denialChecked();
    console.info(`brute force: ${refused} guesses in ${Date.now() - started} ms, ${record.numFailures} checked by Keycloak`);
  }, 90_000);

  it("keeps the owner in: their known phone comes back without the form, and their session refreshes", async () => {
    expect((await lockoutOf(owner.id)).disabled).toBe(true);
    const back = await ownerPhone.resume();
    // Keycloak takes the known phone's return as the owner's successful sign-in: the lock ends with it.
    expect((await lockoutOf(owner.id)).disabled).toBe(false);
    const me = await call('GET', '/api/orders/unread', { token: back.accessToken });
    expect(me.status, me.text).toBe(200);

    const refreshed = await refreshTokens(ownerSession.refreshToken);
    expect(refreshed.status, refreshed.error).toBe(200);
    const after = await call('GET', '/api/orders/unread', { token: refreshed.tokens!.accessToken });
    expect(after.status, after.text).toBe(200);
  }, 60_000);

  it("lets the owner back in by the e-mailed reset link: the new password works at once, lock or not", async () => {
    // The known phone's return ended the lock (Keycloak counts it as the owner's success): lock it again.
    // A token of a sign-in from before the reset (the known phone's): the reset ends that sign-in,
    // and the token with it.
    const held = (await ownerPhone.resume()).accessToken;
    expect((await call('GET', '/api/profile/me', { token: held })).status).not.toBe(401);
    await guessUntilLocked(owner.email, owner.id);
    const forgot = await call('POST', '/api/auth/password/forgot', { json: { email: owner.email } });
    expect(forgot.status).toBe(202);
    const mail = await waitForMail(owner.email, /reset/i);
    const token = new URL(firstLink(mail.text, '/reset-password#token=')!).hash.replace('#token=', '');
    const password = `new-${randomUUID()}`;
    const reset = await call('POST', '/api/auth/password/reset', { json: { token, password, confirm_password: password } });
    expect(reset.status, reset.text).toBe(200);

    const stale = await call('GET', '/api/profile/me', { token: held });
    expect(stale.status, `a token of a sign-in the reset ended: ${stale.text.slice(0, 200)}`).toBe(401);
    expect(await lockoutOf(owner.id)).toMatchObject({ disabled: false, numFailures: 0 });
    const newPhone = new KeycloakBrowser();
    const tokens = await newPhone.signIn(owner.email, password);
    const me = await call('GET', '/api/orders/unread', { token: tokens.accessToken });
    expect(me.status, me.text).toBe(200);
  }, 60_000);
});
