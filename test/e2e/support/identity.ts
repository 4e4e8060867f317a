// Helpers for the identity browser tests: unique test e-mails, Keycloak look-ups for accounts made
// through the sign-up form (so they can be deleted afterwards), and signing in on Keycloak's login page.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { deleteAccount } from '../../support/accounts.js';
import { publicUrl } from './browser.js';

const keycloakUrl = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`;

export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@test.tuber.local`;

async function admin() {
  const client = new KcAdminClient({ baseUrl: keycloakUrl, realmName: 'tuber' });
  await client.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  return client;
}

/** The Keycloak user id of an e-mail, or undefined. */
export async function accountIdByEmail(email: string): Promise<string | undefined> {
  const users = await (await admin()).users.find({ email, exact: true });
  return users[0]?.id;
}

/** A toast of the shell's toast host with exactly this text. */
export const toast = (page: Page, text: string) => page.locator('[role="status"], [role="alert"]').filter({ hasText: text }).first();

const onKeycloak = (url: URL) => url.pathname.startsWith('/auth/realms/tuber/');

/** From any page of the app: /login (which hands over to Keycloak's page by itself) → Keycloak's form → submitted. Does not wait for the way back. */
export async function submitKeycloakLogin(page: Page, email: string, password: string): Promise<void> {
  if (!onKeycloak(new URL(page.url()))) {
    if (!new URL(page.url()).pathname.startsWith('/login')) await page.goto(`${publicUrl}/login`);
    await page.waitForURL(onKeycloak, { timeout: 20_000 });
  }
  await page.locator('#username').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').click();
}

/** Waits until the browser is back in the app (off Keycloak's pages) at `path`. */
export async function backInApp(page: Page, path: string | RegExp, timeout = 30_000): Promise<void> {
  await page.waitForURL(
    (url) =>
      url.origin === publicUrl &&
      !url.pathname.startsWith('/auth/') &&
      (typeof path === 'string' ? url.pathname === path : path.test(url.pathname)),
    { timeout },
  );
}

/** Stops a browser test early, with what to do, when the gateway or the auth client's secret is missing. */
export async function requireIdentityStack({ gateway = true } = {}): Promise<void> {
  if (gateway) {
    const oidc = await fetch(`${publicUrl}/api/auth/oidc`, { signal: AbortSignal.timeout(5000) }).catch((error: Error) => error);
    if (oidc instanceof Error || !oidc.ok)
      throw new Error(`the gateway does not answer /api/auth/oidc at ${publicUrl}; start the stack (make up) or set PUBLIC_URL`);
  }
  if (!process.env.KEYCLOAK_AUTH_CLIENT_SECRET)
    throw new Error('KEYCLOAK_AUTH_CLIENT_SECRET is not set (cat .run/secrets/keycloak-auth-client-secret)');
}

/** Closes what a browser test opened and deletes the accounts it made. */
export async function closeBrowserTest(browser: Browser | undefined, contexts: Iterable<BrowserContext>, accountIds: Iterable<string>) {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  for (const id of accountIds) await deleteAccount(id);
}
