// Rotating refresh tokens in a real browser (docs/adr/0018, docs/adr/0050): each refresh token is good once.
// Once signed in, the auth service keeps the sign-in for the browser and is the only one that refreshes it:
// two tabs of one browser stay signed in through rounds of refreshes without ever sending a refresh token to
// Keycloak themselves; a refresh whose answer was lost is simply asked again; and when the kept sign-in has
// gone (its cookie lost), the shell gets fresh tokens by a silent check and hands them over again instead
// of signing the person out.
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/accounts.js';
import { launchBrowser, publicUrl } from './support/browser.js';
import { backInApp, closeBrowserTest, requireIdentityStack, submitKeycloakLogin } from './support/identity.js';

let browser: Browser;
const contexts: BrowserContext[] = [];
const accountIds: string[] = [];

const KEPT_TOKEN = '**/api/auth/session/token';
/** A refresh the browser itself sends to Keycloak (keycloak-js's); none once the sign-in is kept. */
const isBrowserRefresh = (response: Response) =>
  response.url().endsWith('/protocol/openid-connect/token') && (response.request().postData() ?? '').includes('grant_type=refresh_token');
const isKeptRefresh = (response: Response) => new URL(response.url()).pathname === '/api/auth/session/token';
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
  it('keeps two tabs of one sign-in signed in through two rounds of refreshes, the auth service the only refresher', async () => {
    const { context, page: first } = await signedInContext();
    const browserRefreshes: number[] = [];
    const keptRefreshes: number[] = [];
    context.on('response', (response) => {
      if (isBrowserRefresh(response)) browserRefreshes.push(response.status());
      if (isKeptRefresh(response)) keptRefreshes.push(response.status());
    });
    const second = await context.newPage();
    await second.goto(`${publicUrl}/dashboard/farmer`); // signed in by the kept sign-in
    await expectSignedIn(second);
    expect(keptRefreshes, 'the second tab asks the kept sign-in').toEqual([200]);

    for (let round = 1; round <= 2; round++) {
      const before = keptRefreshes.length;
      await first.waitForTimeout(2_100); // the tabs' tokens age a little, as they would over minutes
      await first.clock.fastForward('04:35'); // both tabs' refresh timers fall due
      await expect.poll(() => keptRefreshes.length - before, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      await first.waitForTimeout(500);
      await expectSignedIn(first);
      await expectSignedIn(second);
    }
    expect(keptRefreshes.filter((status) => status !== 200), 'refused kept refreshes').toEqual([]);
    expect(browserRefreshes, 'refresh tokens sent by the browser itself').toEqual([]);
  });

  it('stays signed in when the answer to a refresh is lost, by asking again', async () => {
    const { page } = await signedInContext();
    let lost = 0;
    await page.route(KEPT_TOKEN, async (route) => {
      await route.fetch(); // the auth service refreshes and keeps the new tokens...
      lost += 1;
      return route.abort('connectionreset'); // ...and its answer never arrives
    });
    await page.clock.fastForward('04:35');
    await expect.poll(() => lost, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.unroute(KEPT_TOKEN);
    const retried = page.waitForResponse((response) => isKeptRefresh(response) && response.ok(), { timeout: 30_000 });
    await page.clock.fastForward('00:11'); // the retry
    await retried;
    await expectSignedIn(page);

    const next = page.waitForResponse((response) => isKeptRefresh(response) && response.ok(), { timeout: 15_000 });
    await page.clock.fastForward('04:35');
    await next;
    await expectSignedIn(page);
  });

  it('recovers by a silent check, and keeps the sign-in again, when the kept sign-in has gone', async () => {
    const { context, page } = await signedInContext();
    // The browser lost the kept sign-in's cookie (or the auth service lost its record): Keycloak's own sign-in lives on.
    await context.clearCookies({ name: 'tuber_session' });
    const refused = page.waitForResponse((response) => isKeptRefresh(response) && response.status() === 401, { timeout: 30_000 });
    const silentCheck = page.waitForRequest((request) => isSilentCheck(request.url()), { timeout: 30_000 });
    const keptAgain = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/auth/session' && response.request().method() === 'POST' && response.ok(),
      { timeout: 30_000 },
    );
    await page.clock.fastForward('04:35');
    await refused;
    await silentCheck;
    await keptAgain;
    await page.waitForTimeout(300);
    await expectSignedIn(page);
    expect((await context.cookies()).some((cookie) => cookie.name === 'tuber_session'), 'a new kept sign-in cookie').toBe(true);

    const next = page.waitForResponse((response) => isKeptRefresh(response) && response.ok(), { timeout: 15_000 });
    await page.clock.fastForward('04:35');
    await next;
    await expectSignedIn(page);
  });
});
