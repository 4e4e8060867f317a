// Keycloak in the product's five languages (issue 13, docs/adr/0044-server-languages.md), against the
// running Keycloak through the gateway: the login page follows ui_locales (what keycloak-js sends for the
// language the app has chosen), English when none or an unknown one is asked for; the account's locale
// attribute reaches the token (the `locale` claim the services read) and Keycloak's own verification mail.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { PUBLIC_URL } from '../support/env.js';
import { claimsOf, signInWithPassword } from '../support/keycloak.js';
import { waitForMail } from '../support/mail.js';

async function loginPage(params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<string> {
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const url = new URL(`${PUBLIC_URL}/auth/realms/tuber/protocol/openid-connect/auth`);
  url.search = new URLSearchParams({
    client_id: 'tuber-web',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${PUBLIC_URL}/login/callback`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  }).toString();
  const response = await fetch(url, { headers });
  expect(response.status, `login page answered ${response.status}`).toBe(200);
  return response.text();
}

const titleOf = (page: string) => page.match(/<title>([^<]*)<\/title>/)?.[1];
const langOf = (page: string) => page.match(/<html lang="([^"]*)"/)?.[1];
const loginButtonOf = (page: string) => page.match(/id="kc-login" type="submit" value="([^"]*)"/)?.[1];

async function admin() {
  const client = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
  await client.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  return client;
}

/** Sets the account's `locale` attribute the way the auth service does (the whole representation back). */
async function setLocale(id: string, locale: string) {
  const kc = await admin();
  const user = await kc.users.findOne({ id });
  await kc.users.update({ id }, { ...user, attributes: { ...(user?.attributes ?? {}), locale: [locale] } });
}

const made: string[] = [];
afterAll(async () => {
  for (const id of made) await deleteAccount(id);
});

describe('Keycloak login page languages', () => {
  it('renders in Yoruba with ui_locales=yo: the page language, the title and the login button, with tone marks', async () => {
    const page = await loginPage({ ui_locales: 'yo' });
    expect(langOf(page)).toBe('yo');
    expect(titleOf(page)).toBe('Wọlé sí Tuber Market');
    expect(loginButtonOf(page)).toBe('Wọlé');
    expect(page).toContain('Ọ̀rọ̀ aṣínà'); // the password label
  });

  it.each([
    ['pcm', 'Enter Tuber Market', 'Enter'],
    ['ha', 'Shiga Tuber Market', 'Shiga'],
    ['ig', 'Banye na Tuber Market', 'Banye'],
  ])('renders in %s with ui_locales (a non-standard code like pcm included)', async (locale, title, button) => {
    const page = await loginPage({ ui_locales: locale });
    expect(langOf(page)).toBe(locale);
    expect(titleOf(page)).toBe(title);
    expect(loginButtonOf(page)).toBe(button);
  });

  it('stays in the spec English without ui_locales, and for a language the product does not have', async () => {
    for (const page of [
      await loginPage({}, { 'accept-language': 'en' }),
      await loginPage({ ui_locales: 'fr' }, { 'accept-language': 'fr' }),
    ]) {
      expect(langOf(page)).toBe('en');
      expect(titleOf(page)).toBe('Login to Tuber Market');
      expect(loginButtonOf(page)).toBe('Login');
    }
  });
});

describe("the account's language", () => {
  it('reaches the token as the locale claim', async () => {
    const account = await createAccount({ role: 'buyer' });
    made.push(account.id);
    await setLocale(account.id, 'ha');
    const { accessToken } = await signInWithPassword(account.email, account.password);
    expect(claimsOf(accessToken).locale).toBe('ha');
  });

  it("is the language of Keycloak's verification mail (Hausa here), English without one", async () => {
    const hausa = await createAccount({ role: 'farmer', verified: false });
    const english = await createAccount({ role: 'buyer', verified: false });
    made.push(hausa.id, english.id);
    await setLocale(hausa.id, 'ha');
    const kc = await admin();
    await kc.users.sendVerifyEmail({ id: hausa.id, clientId: 'tuber-web', redirectUri: `${PUBLIC_URL}/login/callback` });
    await kc.users.sendVerifyEmail({ id: english.id, clientId: 'tuber-web', redirectUri: `${PUBLIC_URL}/login/callback` });

    const ha = await waitForMail(hausa.email, /Tabbatar da adireshin imel ɗinka na Tuber Market/);
    expect(ha.text).toContain('Barka da zuwa Tuber Market.');
    expect(ha.html).toContain('lang="ha"');
    const en = await waitForMail(english.email, /Verify your Tuber Market e-mail address/);
    expect(en.text).toContain('Welcome to Tuber Market.');
  });
});
