// Signing a test account in through the shell in a browser context: /login → Keycloak's form → back in
// the app (a buyer lands on the feed, a farmer on Add Product). The context keeps the session.
import type { BrowserContext, Page } from 'playwright-core';
import { publicUrl } from './browser.js';

export interface Credentials {
  email: string;
  password: string;
}

/** Opens the shell's /login on a new page of `context` and returns it showing Keycloak's sign-in form. */
export async function openSignInForm(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${publicUrl}/login`);
  // The shell's /login shows Keycloak's form at once, or a Login button leading to it.
  const username = page.locator('#username');
  const loginButton = page.getByRole('button', { name: 'Login', exact: true });
  await username.or(loginButton).first().waitFor({ timeout: 20_000 });
  if (!(await username.isVisible())) await loginButton.click();
  await username.waitFor();
  return page;
}

/** Signs in on a new page of `context` and returns that page, back in the app at the person's home. */
export async function signInThroughShell(context: BrowserContext, account: Credentials, home: RegExp = /\/dashboard\//): Promise<Page> {
  const page = await openSignInForm(context);
  await page.locator('#username').fill(account.email);
  await page.locator('#password').fill(account.password);
  await page.locator('#kc-login').click();
  await page.waitForURL((url) => url.origin === publicUrl && !url.pathname.startsWith('/auth') && home.test(url.pathname), {
    timeout: 30_000,
  });
  return page;
}
