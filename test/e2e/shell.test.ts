// The shell behind the gateway: the landing remote inside the shell, the 404 page, and the fallback
// (never a blank page) when the landing remote's server is down, with a working "Try again".
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { backInApp, submitKeycloakLogin } from './support/identity.js';
import { isServing, startFrontEnd, stopFrontEnd, stopSpawnedFrontEnds } from './support/processes.js';

const headline = 'Fresh from Earth, available within your reach';
let browser: Browser;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  const gateway = await fetch(`${publicUrl}/remotes.json`, { signal: AbortSignal.timeout(5000) }).catch((error: Error) => error);
  if (gateway instanceof Error || !gateway.ok) {
    throw new Error(
      `the gateway does not serve the shell at ${publicUrl} (${gateway instanceof Error ? gateway.message : gateway.status}); start it with "make up" or set PUBLIC_URL`,
    );
  }
  if (!(await isServing('landing'))) await startFrontEnd('landing');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  stopSpawnedFrontEnds();
});

async function openPage(path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  page = await browser.newPage({ viewport });
  pageErrors = collectPageErrors(page);
  await page.goto(`${publicUrl}${path}`);
  return page;
}

afterEach(async () => {
  await page?.close();
});

describe('shell', () => {
  it('shows the landing remote inside the shell, under the green wordmark linking to "/"', async () => {
    await openPage('/');
    await page.getByRole('heading', { level: 1, name: headline }).waitFor();
    const wordmark = page.getByRole('banner').getByRole('link', { name: 'Tuber Market home' });
    expect(await wordmark.getAttribute('href')).toBe('/');
    expect(await wordmark.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(21, 128, 61)');
    expect(await page.getByRole('link', { name: 'Join now' }).getAttribute('href')).toBe('/onboarding');
    expect(await page.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    for (const item of ['Sell Your Crops', 'Market Expansion', 'Sales Management', 'Secure Transactions']) {
      await page.getByRole('heading', { name: item }).waitFor();
    }
    await screenshot(page, 'shell-landing');
    expect(pageErrors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });

  it('fits the landing page on a phone', async () => {
    await openPage('/', { width: 390, height: 844 });
    await page.getByRole('heading', { level: 1, name: headline }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'shell-landing-phone');
  });

  it('shows "404 Not Found" for an unknown path', async () => {
    await openPage('/no/such/page');
    await page.getByRole('heading', { name: '404 Not Found' }).waitFor();
    await page.getByText('The page you are looking for does not exist.').waitFor();
    await screenshot(page, 'shell-404');
  });

  it("goes from the header's Login straight to Keycloak's themed login page, and so does /login", async () => {
    await openPage('/', { width: 360, height: 740 });
    await page.getByRole('heading', { level: 1, name: headline }).waitFor();
    const seen: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && seen.push(new URL(frame.url()).pathname));
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
    await page.locator('#kc-login').waitFor();
    expect(seen.filter((path) => path === '/login')).toEqual([]); // not even the product's /login on the way

    await page.goto(`${publicUrl}/login`);
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
    await page.locator('#kc-login').waitFor();

    // Back from Keycloak's page is the landing page, not /login handing over again (no trap).
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: headline }).waitFor();
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('mounts the buyer and farmer remotes in the signed-in dashboard, and sends guests to the login page', async () => {
    await openPage('/dashboard/buyer');
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
    for (const role of ['buyer', 'farmer'] as const) {
      const account = await createAccount({ role });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const signedIn = await context.newPage();
        await submitKeycloakLogin(signedIn, account.email, account.password);
        await backInApp(signedIn, `/dashboard/${role}`);
        // The remote's page, rendered with the shell's contract (one shared @tuber/ui), not the fallback.
        await signedIn.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
        expect(await signedIn.locator('[data-remote-fallback]').count()).toBe(0);
      } finally {
        await context.close();
        await deleteAccount(account.id);
      }
    }
  });

  it('shows a fallback with "Try again" when the landing remote is down, and recovers', async () => {
    await stopFrontEnd('landing');
    try {
      await openPage('/');
      await page.getByRole('heading', { name: 'This part of Tuber Market could not be loaded' }).waitFor();
      await page.getByRole('banner').getByRole('link', { name: 'Tuber Market home' }).waitFor();
      await screenshot(page, 'shell-landing-down');
    } finally {
      await startFrontEnd('landing');
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: headline }).waitFor();
    await screenshot(page, 'shell-landing-recovered');
  });
});
