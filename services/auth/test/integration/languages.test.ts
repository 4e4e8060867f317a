// A person's language on the server (issue 13, docs/adr/0044-server-languages.md), through the gateway
// against the running auth service, Keycloak and Mailpit: the app keeps a signed-in person's choice with
// PUT /api/auth/me/locale (Keycloak's locale attribute, then the token's locale claim and the reset mail
// in Yoruba); a sign-up with a language gets Keycloak's verification mail in it (Igbo here).
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteAccount, keycloakUser, signedInAccount } from '../../../../test/support/accounts.js';
import { api, eventually } from '../../../../test/support/api.js';
import { claimsOf, signInWithPassword } from '../../../../test/support/keycloak.js';
import { waitForMail } from '../../../../test/support/mail.js';

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map(deleteAccount));
});

describe('PUT /api/auth/me/locale', () => {
  it("keeps the signed-in person's language in Keycloak: the next token says it, and the reset mail speaks it", async () => {
    const buyer = await signedInAccount({ role: 'buyer' });
    made.push(buyer.id);

    const first = await api('PUT', '/api/auth/me/locale', { token: buyer.accessToken, json: { locale: 'yo' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ locale: 'yo', changed: true });
    const again = await api('PUT', '/api/auth/me/locale', { token: buyer.accessToken, json: { locale: 'yo' } });
    expect(again.body).toEqual({ locale: 'yo', changed: false });
    expect((await keycloakUser(buyer.id))?.attributes?.locale).toEqual(['yo']);
    // Other attributes stay as they were (Keycloak replaces them wholesale on update).
    expect((await keycloakUser(buyer.id))?.attributes?.user_type).toEqual(['buyer']);

    const { accessToken } = await signInWithPassword(buyer.email, buyer.password);
    expect(claimsOf(accessToken).locale).toBe('yo');

    expect((await api('POST', '/api/auth/password/forgot', { json: { email: buyer.email } })).status).toBe(202);
    const mail = await waitForMail(buyer.email, /Tún ọ̀rọ̀ aṣínà Tuber Market rẹ ṣe/);
    expect(mail.text).toContain('Ẹnìkan béèrè láti tún ọ̀rọ̀ aṣínà àkántì Tuber Market rẹ ṣe.');
    expect(mail.text).toMatch(/\/reset-password#token=/);
  });

  it('refuses a language the product does not have, and anyone not signed in', async () => {
    const buyer = await signedInAccount({ role: 'buyer' });
    made.push(buyer.id);
    const french = await api('PUT', '/api/auth/me/locale', { token: buyer.accessToken, json: { locale: 'fr' } });
    expect(french.status).toBe(400);
    expect(typeof french.body.message).toBe('string');
    expect((await api('PUT', '/api/auth/me/locale', { json: { locale: 'yo' } })).status).toBe(401);
    expect((await keycloakUser(buyer.id))?.attributes?.locale).toBeUndefined();
  });
});

describe('forgot password with the language of the app', () => {
  it("mails the reset link in the form's language when the account has none, in the account's own when it has one", async () => {
    const [plain, yoruba] = await Promise.all([signedInAccount({ role: 'buyer' }), signedInAccount({ role: 'farmer' })]);
    made.push(plain.id, yoruba.id);
    expect((await api('PUT', '/api/auth/me/locale', { token: yoruba.accessToken, json: { locale: 'yo' } })).status).toBe(200);
    for (const account of [plain, yoruba]) {
      const answer = await api('POST', '/api/auth/password/forgot', { json: { email: account.email, locale: 'ha' } });
      expect(answer.status).toBe(202);
    }
    const hausa = await waitForMail(plain.email, /Sake saita kalmar sirrinka ta Tuber Market/);
    expect(hausa.text).toContain('Wani ya nemi a sake saita kalmar sirrin asusunka na Tuber Market.');
    await waitForMail(yoruba.email, /Tún ọ̀rọ̀ aṣínà Tuber Market rẹ ṣe/);
  });
});

describe('sign-up with a language', () => {
  it("gets Keycloak's verification mail in that language (Igbo)", async () => {
    const email = `igbo-${randomUUID().slice(0, 8)}@test.tuber.local`;
    const password = `Ube-${randomUUID()}`;
    const answer = await api('POST', '/api/auth/signup/buyer', {
      json: { firstname: 'Chidi', lastname: 'Okeke', email, phone: '0803 123 4567', password, confirm_password: password, locale: 'ig' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const mail = await waitForMail(email, /Kwado adreesị email Tuber Market gị/, 30_000);
    expect(mail.text).toContain('Ndeewo Chidi,');
    expect(mail.text).toContain('Nnọọ na Tuber Market.');

    const kc = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
    await kc.auth({ grantType: 'client_credentials', clientId: 'tuber-auth', clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '' });
    const [user] = await eventually(
      () => kc.users.find({ email, exact: true }),
      (found) => found.length === 1,
    );
    made.push(user!.id!);
    expect(user!.attributes?.locale).toEqual(['ig']);
  });
});
