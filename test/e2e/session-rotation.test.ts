// Rotating refresh tokens in a real browser (docs/adr/0018): each refresh token is good once, and
// Keycloak drops the client's tokens when a spent one comes back. Two tabs of one browser keep
// refreshing from the same sign-in; a refresh whose answer was lost is retried with the spent token,
// and the shell then gets fresh tokens by a silent check instead of signing the person out.
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/accounts.js';
import { launchBrowser, publicUrl } from './support/browser.js';
import { backInApp, closeBrowserTest, requireIdentityStack, submitKeycloakLogin } from './support/identity.js';

let browser: Browser;
const contexts: BrowserContext[] = [];
const accountIds: string[] = [];

const TOKEN = '**/protocol/openid-connect/token';
const isRefresh = (response: Response) =>
  response.url().endsWith('/protocol/openid-connect/token') && (response.request().postData() ?? '').includes('grant_type=refresh_token');
const isSilentCheck = (url: string) => url.includes('/protocol/openid-connect/auth') && url.includes('prompt=none');

async function signedInContext() {
  const account = await createAccount({ role: 'farmer', businessName: 'Rotation Farms' });
  accountIds.push(account.id);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await context.clock.install(); // time flows normally; the tests jump it to the refresh
  const page = await context.newPage();
  await page.goto(`${publicUrl}/login`);
  await submitKeycloakLogin(page, account.email, account.password);
  await backInApp(page, '/dashboard/farmer');
  return { context, page };
}

async function expectSignedIn(page: Page) {
  await page.getByRole('banner').getByRole('link', { name: 'Go to Profile' }).waitFor({ timeout: 10_000 });
  expect(new URL(page.url()).pathname).toBe('/dashboard/farmer');
}

beforeAll(async () => {
  await requireIdentityStack({ gateway: false });
  browser = await launchBrowser();
});

afterAll(async () => closeBrowserTest(browser, contexts, accountIds));

describe('rotating refresh tokens in the shell', () => {
  it('keeps two tabs of one sign-in signed in through two rounds of refreshes', async () => {
    const { context, page: first } = await signedInContext();
    const second = await context.newPage();
    await second.goto(`${publicUrl}/dashboard/farmer`); // signed in by the silent check
    await expectSignedIn(second);

    const refreshes: number[] = [];
    context.on('response', (response) => {
      if (isRefresh(response)) refreshes.push(response.status());
    });

    for (let round = 1; round <= 2; round++) {
      const before = refreshes.length;
      await first.waitForTimeout(2_100); // the tabs' tokens age a little, as they would over minutes
      await first.clock.fastForward('04:35'); // both tabs' refresh timers fall due
      await expect.poll(() => refreshes.length - before, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      await first.waitForTimeout(1_500); // a refused tab's silent check
      await expectSignedIn(first);
      await expectSignedIn(second);
    }
    // Each tab rotates its own refresh token within the one sign-in; none is refused.
    expect(refreshes.filter((status) => status !== 200)).toEqual([]);
  });

  it('stays signed in when a refresh answer is lost and the retry sends the spent token', async () => {
    const { page } = await signedInContext();
    let lost = 0;
    await page.route(TOKEN, async (route) => {
      if (!(route.request().postData() ?? '').includes('grant_type=refresh_token')) return route.continue();
      await route.fetch(); // Keycloak rotates: the token sent is now spent...
      lost += 1;
      return route.abort('connectionreset'); // ...and its answer never arrives
    });
    // Whatever sends the spent token again (the 10 s retry, or a tab-focus refresh), Keycloak refuses
    // it and the shell asks silently for new tokens.
    const refused = page.waitForResponse((response) => isRefresh(response) && response.status() === 400, { timeout: 30_000 });
    const silentCheck = page.waitForRequest((request) => isSilentCheck(request.url()), { timeout: 30_000 });
    const newTokens = page.waitForResponse(
      (response) =>
        response.url().endsWith('/protocol/openid-connect/token') &&
        (response.request().postData() ?? '').includes('grant_type=authorization_code') &&
        response.ok(),
      { timeout: 30_000 },
    );
    await page.clock.fastForward('04:35');
    await expect.poll(() => lost).toBeGreaterThan(0);
    await page.unroute(TOKEN);
    await page.clock.fastForward('00:11'); // the retry
    await refused;
    await silentCheck;
    await newTokens;
    await page.waitForTimeout(300); // the shell takes the new instance's tokens
    await expectSignedIn(page);

    // The tokens the silent check brought refresh as usual.
    const next = page.waitForResponse((response) => isRefresh(response) && response.ok(), { timeout: 15_000 });
    await page.clock.fastForward('04:35');
    await next;
    await expectSignedIn(page);
  });
});
