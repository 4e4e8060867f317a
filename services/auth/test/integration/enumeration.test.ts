// No account enumeration (issue 9, item 5): sign-up, resend and forgot answer the same whether
// or not the address has an account, and a per-address cooldown keeps the mail they cause to one
// a minute. Against the real Keycloak, Redis and Mailpit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount } from '../../../../test/support/accounts.js';
import { signInWithPassword } from '../../../../test/support/keycloak.js';
import { firstLink, mailCount, waitForMail } from '../../../../test/support/mail.js';
import { authApp, keycloakUsersByEmail, post, uniqueEmail, type TestApp } from './support.js';

const REGISTRATION_SUCCESSFUL = 'Registration successful! Please verify your email.';
const SIGNUP_ATTEMPT = /Someone tried to sign up/;

let auth: TestApp;
const created: string[] = [];
const registered: string[] = [];
beforeAll(async () => {
  auth = await authApp();
});
afterAll(async () => {
  await auth?.app.close();
  for (const email of registered) for (const user of await keycloakUsersByEmail(email)) created.push(user.id!);
  await Promise.all(created.map(deleteAccount));
});

const buyerForm = (email: string, password = 'cassava-field-9') => ({
  firstname: 'Bola',
  lastname: 'Ade',
  email,
  phone: '0803 000 0000',
  password,
  confirm_password: password,
});

/** The whole answer, and whether the route left Keycloak work running after it (it must, either way). */
async function signupAnswer(app: TestApp, email: string) {
  const answer = await post(app.app, '/api/auth/signup/buyer', buyerForm(email));
  return { status: answer.statusCode, body: answer.json(), workLeftRunning: app.background.pending > 0 };
}

describe('sign-up with an address that already has an account', () => {
  it('answers exactly like a new address, creates nothing, and mails the owner instead', async () => {
    const owner = await createAccount({ role: 'farmer' });
    created.push(owner.id);
    const fresh = uniqueEmail('buyer');
    registered.push(fresh);

    const forNew = await signupAnswer(auth, fresh);
    const forExisting = await signupAnswer(auth, owner.email.toUpperCase());
    const same = { status: 201, body: { message: REGISTRATION_SUCCESSFUL }, workLeftRunning: true };
    expect(forNew).toEqual(same);
    expect(forExisting).toEqual(same);
    await auth.background.settled();

    // The new address got its account and Keycloak's verification mail.
    expect(await keycloakUsersByEmail(fresh)).toHaveLength(1);
    await waitForMail(fresh, /verif/i);
    // The owner got a mail saying what happened and what to do; their account is as it was.
    const mail = await waitForMail(owner.email, SIGNUP_ATTEMPT);
    expect(mail.text).toContain('If it was you, sign in');
    expect(firstLink(mail.text, '/login')).toBeDefined();
    expect(firstLink(mail.text, '/forgot-password')).toBeDefined();
    expect(mail.text).not.toContain('cassava-field-9');
    expect(await keycloakUsersByEmail(owner.email)).toEqual([expect.objectContaining({ id: owner.id })]);
    expect((await signInWithPassword(owner.email, owner.password)).accessToken).toBeTruthy();
    await expect(signInWithPassword(owner.email, 'cassava-field-9')).rejects.toThrow();
  });

  it('does not take noticeably longer or shorter for one than for the other', async () => {
    const owner = await createAccount({ role: 'buyer' });
    created.push(owner.id);
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 4; i++) {
      for (const kind of ['known', 'unknown'] as const) {
        const email = kind === 'known' ? owner.email : uniqueEmail('timing');
        if (kind === 'unknown') registered.push(email);
        const started = performance.now();
        expect((await post(auth.app, '/api/auth/signup/buyer', buyerForm(email))).statusCode).toBe(201);
        times[kind].push(performance.now() - started);
      }
    }
    await auth.background.settled();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Both answer before any Keycloak call (tens of milliseconds at most), so neither median can tell them apart.
    expect(median(times.known)).toBeLessThan(100);
    expect(median(times.unknown)).toBeLessThan(100);
  });
});

describe('the per-address mail cooldown', () => {
  it('sends one reset mail for a burst of requests, each answered the same', async () => {
    const { id, email } = await createAccount({ role: 'buyer' });
    created.push(id);
    for (let i = 0; i < 3; i++) {
      const answer = await post(auth.app, '/api/auth/password/forgot', { email });
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({
        status: 202,
        body: { message: 'Password reset link sent to your email!' },
      });
    }
    await auth.background.settled();
    await waitForMail(email, /reset/i);
    expect(await mailCount(email)).toBe(1);
  });

  it('holds whatever the route: sign-up attempts, resend and forgot share one turn per address', async () => {
    const owner = await createAccount({ role: 'buyer', verified: false });
    created.push(owner.id);
    expect((await post(auth.app, '/api/auth/signup/buyer', buyerForm(owner.email))).statusCode).toBe(201);
    expect(
      (await post(auth.app, '/api/auth/signup/farmer', { ...buyerForm(owner.email), business_name: 'B', location: 'L' })).statusCode,
    ).toBe(201);
    expect((await post(auth.app, '/api/auth/verification/resend', { email: owner.email })).statusCode).toBe(202);
    expect((await post(auth.app, '/api/auth/password/forgot', { email: owner.email })).statusCode).toBe(202);
    await auth.background.settled();
    // Whichever reached the cooldown first sent its mail (the sign-ups first ask Keycloak, so resend's or
    // forgot's mail may win the turn); exactly one mail of the four kinds arrives.
    await waitForMail(owner.email, /Someone tried to sign up|verif|reset/i);
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything else would have arrived by now
    expect(await mailCount(owner.email)).toBe(1);
  });

  it('lets the next mail go once the cooldown has run out', async () => {
    const quick = await authApp({ MAIL_COOLDOWN_SECONDS: '1' });
    try {
      const { id, email } = await createAccount({ role: 'buyer' });
      created.push(id);
      await post(quick.app, '/api/auth/password/forgot', { email });
      await quick.background.settled();
      await post(quick.app, '/api/auth/password/forgot', { email });
      await quick.background.settled();
      expect(await mailCount(email)).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await post(quick.app, '/api/auth/password/forgot', { email });
      await quick.background.settled();
      await expect.poll(() => mailCount(email), { timeout: 10_000 }).toBe(2);
    } finally {
      await quick.app.close();
    }
  });
});
