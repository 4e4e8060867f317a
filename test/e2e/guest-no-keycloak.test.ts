// A first-time guest's `/` (issue 13: a cheap phone on a slow network) downloads no keycloak-js and asks
// Keycloak nothing: no /api/auth/oidc, no silent check-sso iframe, no /auth/realms/… request at all. Yet the
// header's Login still signs a buyer in end to end (keycloak-js comes on demand, or on the pointer's way to
// the button), and once signed in a reload of `/` asks the sign-in the auth service keeps (the was-signed-in
// hint; docs/adr/0050) and shows the signed-in header, still without keycloak-js.
//
// Requests are counted for the page (its frames included), not for the service worker: the worker precaches
// the shell's files, the keycloak-js chunk among them, after the page has loaded.
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { backInApp, requireIdentityStack } from './support/identity.js';

/** A string of keycloak-js's own code (the silent check's iframe title): in whichever script carries it. */
const KEYCLOAK_JS_MARK = 'keycloak-silent-check-sso';
const KEYCLOAK_CHUNK = /\/keycloak\.[0-9a-f]+\.js$/;
/** The auth service's words while Keycloak is down (GET /api/auth/oidc answers 503). */
const UNAVAILABLE = 'Sign-in is unavailable right now. Please try again in a few minutes.';

let browser: Browser;
let context: BrowserContext;
let buyer: { id: string; email: string; password: string } | undefined;

interface Seen {
  requests: Request[];
  /** Script URLs whose body holds keycloak-js's code. */
  keycloakScripts: string[];
  /** Compressed bytes (with headers) of the page's scripts. */
  scriptBytes: () => Promise<number>;
}

/** Watches what a page asks for, frames included, leaving out the service worker's own fetches. */
function watch(page: Page): Seen {
  const requests: Request[] = [];
  const scripts: Request[] = [];
  const keycloakScripts: string[] = [];
  page.on('request', (request) => {
    if (request.serviceWorker()) return;
    requests.push(request);
    if (request.resourceType() === 'script') scripts.push(request);
  });
  page.on('response', async (response) => {
    const request = response.request();
    if (request.serviceWorker() || request.resourceType() !== 'script') return;
    const body = await response.text().catch(() => '');
    if (body.includes(KEYCLOAK_JS_MARK)) keycloakScripts.push(request.url());
  });
  const scriptBytes = async () => {
    let total = 0;
    for (const request of scripts) {
      const sizes = await request.sizes().catch(() => null);
      if (sizes) total += sizes.responseBodySize + sizes.responseHeadersSize;
    }
    return total;
  };
  return { requests, keycloakScripts, scriptBytes };
}

const paths = (seen: Seen) => seen.requests.map((request) => new URL(request.url()).pathname + new URL(request.url()).search);
const askedKeycloak = (seen: Seen) =>
  paths(seen).filter((path) => path.startsWith('/auth/') || path.startsWith('/api/auth/oidc') || path.startsWith('/silent-check-sso'));

beforeAll(async () => {
  await requireIdentityStack();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  // Made with pending_profile like a fresh sign-up: the first sign-in below also makes the profile.
  buyer = await createAccount({ role: 'buyer' });
});

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  if (buyer) await deleteAccount(buyer.id);
});

describe("a guest's first load of the landing page", () => {
  it('downloads no keycloak-js and asks Keycloak nothing; Login still signs a buyer in; a reload of / is signed in', async () => {
    const account = buyer!;
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const guest = watch(page);

    await page.goto(`${publicUrl}/`);
    const login = page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Login', exact: true });
    // The header shows Login once the shell knows the visitor is a guest: at once now (it waited for check-sso before).
    await login.waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1_000); // a late silent check would have started by now
    await screenshot(page, 'guest-no-keycloak-landing-360');
    const guestBytes = await guest.scriptBytes();
    console.info(
      `guest / at 360 px: ${guest.requests.filter((r) => r.resourceType() === 'script').length} scripts, ${(guestBytes / 1024).toFixed(1)} KB transferred`,
    );

    expect(guest.keycloakScripts, 'scripts carrying keycloak-js on a guest landing page').toEqual([]);
    expect(paths(guest).filter((path) => KEYCLOAK_CHUNK.test(path))).toEqual([]);
    expect(askedKeycloak(guest), 'requests to Keycloak / the sign-in settings on a guest landing page').toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length), 'hidden check-sso iframes').toBe(0);

    // On the way to the button, keycloak-js starts downloading, so the click does not wait for it.
    await login.hover();
    await expect.poll(() => guest.keycloakScripts.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(askedKeycloak(guest)).toEqual([]);

    // Login: keycloak-js and the settings are at hand, straight to Keycloak's form (no silent check first).
    await login.click();
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'), { timeout: 20_000 });
    expect(
      paths(guest).some((path) => /prompt=none/.test(path)),
      'a silent check before the login redirect',
    ).toBe(false);
    await page.locator('#username').fill(account.email);
    await page.locator('#password').fill(account.password);
    await page.locator('#kc-login').click();
    // A first sign-in makes the buyer's profile, then /profile sends a buyer to the feed.
    await backInApp(page, '/dashboard/buyer', 45_000);
    await page.getByRole('button', { name: 'Logout' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => localStorage.getItem('tuber:was-signed-in'))).toBe('1');

    // The sign-in was handed to the auth service on the way back (docs/adr/0050).
    expect(paths(guest).filter((path) => path === '/api/auth/session'), 'the hand-over of the sign-in').toHaveLength(1);
    // The account keeps the page's language once the first screen is shown (afterPageLoad.ts).
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('tuber:locale-sent')), { timeout: 15_000 })
      .toMatch(/^[0-9a-f-]+:en$/);

    // A new load of `/`: the hint says a session may exist, and the kept sign-in answers it in one request:
    // no keycloak-js, no silent check with Keycloak.
    const again = watch(page);
    await page.goto(`${publicUrl}/`);
    const header = page.getByRole('navigation', { name: 'Account' });
    await header.getByRole('button', { name: 'Logout' }).waitFor({ timeout: 20_000 });
    expect(await header.getByRole('link', { name: 'Go to Profile' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Login', exact: true }).count()).toBe(0);
    await screenshot(page, 'guest-no-keycloak-signed-in-landing-360');
    expect(paths(again).filter((path) => path === '/api/auth/session/token'), 'the kept sign-in asked once').toHaveLength(1);
    expect(again.keycloakScripts, 'keycloak-js on a signed-in reload').toEqual([]);
    expect(askedKeycloak(again), 'requests to Keycloak on a signed-in reload').toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length), 'hidden check-sso iframes').toBe(0);
    // Once the first screen is shown the header's unread count is asked for; the language, which the account
    // already keeps, is not sent again.
    await expect.poll(() => paths(again).includes('/api/orders/unread'), { timeout: 15_000 }).toBe(true);
    expect(paths(again).filter((path) => path === '/api/auth/me/locale'), 'the kept language sent again').toEqual([]);

    expect(errors.filter((line) => !/favicon/.test(line))).toEqual([]);
  });

  it('still says "sign-in is unavailable" when Keycloak does not answer as the guest presses Login, and /login offers to try again', async () => {
    const guestContext = await browser.newContext({ viewport: { width: 360, height: 780 } });
    try {
      // What the auth service answers while Keycloak is down (issue 10, R5).
      await guestContext.route(`${publicUrl}/api/auth/oidc`, (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          headers: { 'cache-control': 'no-store' },
          body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: UNAVAILABLE }),
        }),
      );
      const page = await guestContext.newPage();
      await page.goto(`${publicUrl}/`);
      const login = page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Login', exact: true });
      await login.click();
      await page
        .getByRole('alert')
        .filter({ hasText: `Error logging in: ${UNAVAILABLE}` })
        .first()
        .waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe('/');

      await page.goto(`${publicUrl}/login`);
      await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('alert').filter({ hasText: UNAVAILABLE }).count()).toBeGreaterThan(0);
      await screenshot(page, 'guest-no-keycloak-unavailable-360');
    } finally {
      await guestContext.close();
    }
  });
});
