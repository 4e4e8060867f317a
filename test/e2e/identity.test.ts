// Identity end to end (issue 3) in headless Chromium through the gateway: sign-up in the product's forms,
// the verification mail read from Mailpit and followed, login on Keycloak's themed page, the first-login
// profile, the dashboards and their menus, guards both ways, logout with confirmation, forgot/reset
// password, and the small-screen menu. Timings asked for by the issue are printed.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/accounts.js';
import { api } from '../support/api.js';
import { SignInRefused, claimsOf, signInWithPassword } from '../support/keycloak.js';
import { firstLink, mailCount, waitForMail } from '../support/mail.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import {
  accountIdByEmail,
  backInApp,
  closeBrowserTest,
  requireIdentityStack,
  submitKeycloakLogin,
  toast,
  uniqueEmail,
} from './support/identity.js';

let browser: Browser;
const contexts: BrowserContext[] = [];
const accountIds = new Set<string>();
const password = 'tuber-pass-1';

async function freshPage(viewport = { width: 1280, height: 900 }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  return { page, errors: collectPageErrors(page) };
}

async function verifiedAccount(role: 'buyer' | 'farmer') {
  const account = await createAccount({ role, businessName: 'Identity Farms', location: 'Ibadan', tuber: ['yam', 'ginger'] });
  accountIds.add(account.id);
  return account;
}

/** Signs in through /login and Keycloak's form; resolves once back in the app at `landing`. */
async function signIn(page: Page, email: string, secret: string, landing: string | RegExp) {
  await page.goto(`${publicUrl}/login`);
  await submitKeycloakLogin(page, email, secret);
  await backInApp(page, landing);
}

/** The product's /login, or Keycloak's login page it hands over to at once. */
const toLogin = (url: URL) => url.pathname === '/login' || url.pathname.startsWith('/auth/realms/tuber/');

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Dashboard menu' });

beforeAll(async () => {
  await requireIdentityStack();
  browser = await launchBrowser();
});

afterAll(async () => closeBrowserTest(browser, contexts, accountIds));

describe('sign-up, verification and first login', () => {
  for (const role of ['farmer', 'buyer'] as const) {
    it(`a ${role} signs up, follows the verification mail, logs in on Keycloak's page and lands on /dashboard/${role} with the profile created`, async () => {
      const { page, errors } = await freshPage();
      const email = uniqueEmail(`e2e-${role}`);

      await page.goto(`${publicUrl}/onboarding`);
      await page.getByRole('link', { name: role === 'farmer' ? 'Join as a farmer' : 'Sign-up as a buyer' }).click();
      await page.waitForURL(`${publicUrl}/signup${role}`);
      await page.getByRole('heading', { name: role === 'farmer' ? 'Create New Farmer Account' : 'Create New Buyer Account' }).waitFor();

      await page.getByLabel('First Name').fill('Ada');
      await page.getByLabel('Last Name').fill(role === 'farmer' ? 'Grower' : 'Shopper');
      if (role === 'farmer') {
        await page.getByLabel('Farm / Business Name').fill('Ada Tubers');
        const boxes = page.getByRole('group', { name: 'Tubers You Grow' }).getByRole('checkbox');
        expect(await boxes.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
          'yam',
          'cassava',
          'potato',
          'sweet potato',
          'tumeric',
          'garlic',
          'ginger',
        ]);
        await page.getByRole('checkbox', { name: 'yam' }).check();
        await page.getByRole('checkbox', { name: 'ginger' }).check();
        await page.getByLabel('Farm Location / Farm Address').fill('Ibadan, Oyo State');
      }
      expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
      expect(await page.getByLabel('Phone Number').getAttribute('type')).toBe('tel');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone Number').fill('+2348031234567');
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm Password').fill('something-else');

      // Checked in the browser before anything is sent.
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await toast(page, 'Passwords do not match!').waitFor();
      expect(await accountIdByEmail(email)).toBeUndefined();

      await page.getByLabel('Confirm Password').fill(password);
      const signupAt = Date.now();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await toast(page, 'Registration successful! Please verify your email.').waitFor();
      await page.getByRole('heading', { name: 'Account Created!' }).waitFor();
      await page.getByText('Please verify your email before logging in').waitFor();
      // The auth service answers at once and makes the account just after (the same answer for any address).
      await expect.poll(() => accountIdByEmail(email), { timeout: 15_000 }).toBeTruthy();
      accountIds.add((await accountIdByEmail(email))!);
      await screenshot(page, `identity-${role}-account-created`);

      const mail = await waitForMail(email, /verif/i);
      console.log(`[identity] ${role}: sign-up request to verification mail in Mailpit: ${Date.now() - signupAt} ms`);
      const link = firstLink(mail.text, 'action-token');
      expect(link, mail.text).toBeTruthy();

      // Keycloak asks to confirm, then reports the address verified with one button that continues into
      // the product: its /login, which opens Keycloak's login page at once.
      await page.goto(link!);
      await page.getByRole('heading', { name: 'Confirm your e-mail address' }).waitFor();
      await page.getByRole('link', { name: 'Continue', exact: true }).click();
      await page.getByText('Your email address has been verified.').waitFor();
      await screenshot(page, `identity-${role}-email-verified`);
      expect(await page.getByRole('link', { name: 'Back to Login' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Continue to Login' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
      await page.locator('#username').waitFor();
      // The themed page: the product's links, absolute, to the shell.
      expect(await page.getByRole('link', { name: 'Forgot Password?' }).getAttribute('href')).toBe(`${publicUrl}/forgot-password`);
      expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(`${publicUrl}/onboarding`);
      await screenshot(page, `identity-${role}-keycloak-login`);
      await page.locator('#username').fill(email);
      await page.locator('#password').fill(password);
      const loginAt = Date.now();
      await page.locator('#kc-login').click();
      await backInApp(page, `/dashboard/${role}`);
      console.log(`[identity] ${role}: login round trip (submit on Keycloak → /dashboard/${role}): ${Date.now() - loginAt} ms`);

      await toast(page, 'Login successful!').waitFor();
      await toast(page, `Your ${role} profile has been created!`).waitFor();
      // The spec's items in its order, with issue 12's after them (a new account: no badges yet).
      const menu =
        role === 'farmer'
          ? ['Add Product', 'Product Lists', 'Requests', 'Insights', 'Profile', 'Logout']
          : ['Products', 'Cart', 'My requests', 'Profile', 'Logout'];
      expect((await sidebar(page).getByRole('listitem').allInnerTexts()).map((text) => text.trim())).toEqual(menu);
      const current = sidebar(page).getByRole('link', { name: role === 'farmer' ? 'Add Product' : 'Products' });
      expect(await current.getAttribute('aria-current')).toBe('page');
      await page.getByRole('banner').getByRole('button', { name: 'Logout' }).waitFor();
      await screenshot(page, `identity-${role}-dashboard`);

      // "Go to Profile" opens the profile (the menu's Profile page), not the dashboard's home.
      await page.getByRole('banner').getByRole('link', { name: 'Go to Profile' }).click();
      await page.waitForURL(`${publicUrl}/dashboard/${role}profile`);
      await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue(), { timeout: 15_000 }).toBe(email);
      expect(await sidebar(page).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');

      const { accessToken } = await signInWithPassword(email, password);
      const profile = await api('GET', '/api/profile/me', { token: accessToken });
      expect(profile.status).toBe(200);
      expect(profile.body).toMatchObject({ user_type: role, email, firstname: 'Ada' });
      if (role === 'farmer')
        expect(profile.body).toMatchObject({ business_name: 'Ada Tubers', location: 'Ibadan, Oyo State', tuber: ['yam', 'ginger'] });
      expect(errors.filter((e) => !/favicon|status of 40[14]/.test(e))).toEqual([]);
    });
  }

  it('logging in before verifying shows Email Not Verified, whose "Resend verification" is the product\'s own, and Back to Login', async () => {
    // Made in Keycloak directly, so no sign-up mail started the auth service's per-address cooldown.
    const account = await createAccount({ role: 'buyer', verified: false });
    accountIds.add(account.id);
    const { page } = await freshPage({ width: 360, height: 740 });
    await submitKeycloakLogin(page, account.email, account.password);
    await page.getByRole('heading', { name: 'Email Not Verified' }).waitFor();
    await page.getByText('Please verify your email before logging in').waitFor();
    await page.getByText(account.email).waitFor();
    // Keycloak mailed a link when the page opened; "Resend verification" asks the auth service for another.
    await expect.poll(() => mailCount(account.email), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const before = await mailCount(account.email);
    const answer = page.waitForResponse((response) => response.url() === `${publicUrl}/api/auth/verification/resend`);
    await page.getByRole('link', { name: 'Resend verification' }).click();
    expect((await answer).status()).toBe(202);
    await toast(page, 'Verification email resent! Please check your inbox.').waitFor();
    await expect.poll(() => mailCount(account.email), { timeout: 15_000 }).toBeGreaterThan(before);
    expect(new URL(page.url()).pathname.startsWith('/auth/realms/tuber/')).toBe(true); // still on the page
    // Every message points at a control that is there; the page fits the phone.
    expect(await page.getByText(/click here/i).count()).toBe(0);
    expect(await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'identity-email-not-verified');

    // A refusal is the spec's "Failed to resend: {message}" with the server's message (here: no valid address).
    await page.locator('#tuber-resend').evaluate((link) => link.setAttribute('data-email', 'not-an-address'));
    await page.getByRole('link', { name: 'Resend verification' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Failed to resend: \S/ })
      .waitFor();

    expect(await page.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe(`${publicUrl}/login`);
    await page.getByRole('link', { name: 'Back to Login' }).click();
    // The product's /login opens Keycloak's login page again (the person is still not signed in).
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/') && !url.pathname.includes('required-action'));
    await page.locator('#username').waitFor();
  });
});

describe('forgot and reset password', () => {
  it('mails a single-use link; the reset page sets a new password; the old one fails and the new one works', async () => {
    const account = await verifiedAccount('buyer');
    const { page } = await freshPage();
    await page.goto(`${publicUrl}/login`);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Forgot Your Password?' }).waitFor();
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await toast(page, 'Password reset link sent to your email!').waitFor();
    const sentAt = Date.now();
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    await page.waitForURL(toLogin, { timeout: 6000 });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(2500);
    // /login hands over to Keycloak at once: let that navigation finish before opening the mail's link.
    await page.locator('#username').waitFor();

    const mail = await waitForMail(account.email, /password/i);
    const link = firstLink(mail.text, '/reset-password#token=');
    expect(link, mail.text).toBeTruthy();

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Create New Password' }).waitFor();
    const update = page.getByRole('button', { name: 'Update Password' });
    await expect.poll(() => update.isEnabled()).toBe(true);
    await page.getByLabel('New Password', { exact: true }).fill('abcdef');
    await page.getByLabel('Confirm New Password').fill('abcdeg');
    await update.click();
    await toast(page, 'Passwords do not match!').waitFor();
    // 8 characters, not the spec's 6 (ADR 0012): the hint says so, and 7 are refused before anything is sent.
    await page.getByText('At least 8 characters').waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('abcdefg');
    await page.getByLabel('Confirm New Password').fill('abcdefg');
    await update.click();
    await toast(page, 'Password must be at least 8 characters long').waitFor();
    const newPassword = 'brand-new-pass-2';
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await update.click();
    await toast(page, 'Password updated successfully!').waitFor();
    await screenshot(page, 'identity-password-updated');
    await page.waitForURL(toLogin, { timeout: 6000 });

    await expect(signInWithPassword(account.email, account.password)).rejects.toBeInstanceOf(SignInRefused);
    const { accessToken } = await signInWithPassword(account.email, newPassword);
    expect(claimsOf(accessToken).email).toBe(account.email);

    // The link is used up: the spec's message, and back to /forgot-password.
    await page.goto(link!);
    await toast(page, 'This reset link has expired or was already used. Ask for a new one.').waitFor(); // RESET_LINK_INVALID in the reader's words (issue 25)
    await page.waitForURL(`${publicUrl}/forgot-password`);
    await page.goto(`${publicUrl}/reset-password`);
    await page.waitForURL(`${publicUrl}/forgot-password`);
  });
});

describe('session, guards and the dashboard', () => {
  let buyer: Awaited<ReturnType<typeof verifiedAccount>>;
  let farmer: Awaited<ReturnType<typeof verifiedAccount>>;

  beforeAll(async () => {
    [buyer, farmer] = await Promise.all([verifiedAccount('buyer'), verifiedAccount('farmer')]);
  });

  it('sends an anonymous visitor of /dashboard/cart to /login and back to /dashboard/cart after login', async () => {
    const { page } = await freshPage();
    await page.goto(`${publicUrl}/dashboard/cart`);
    // Through /login straight to Keycloak's page: no second Login button on the way.
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
    await submitKeycloakLogin(page, buyer.email, buyer.password);
    await backInApp(page, '/dashboard/cart');
    await toast(page, 'Login successful!').waitFor();

    // Signed in: guest-only pages go to /profile, which sends a buyer to the feed.
    for (const guestOnly of ['/login', '/onboarding', '/signupfarmer', '/forgot-password']) {
      await page.goto(`${publicUrl}${guestOnly}`);
      await page.waitForURL(`${publicUrl}/dashboard/buyer`);
    }
    // A buyer opening the farmer's pages goes to the feed.
    for (const farmerPage of ['/dashboard/farmer', '/dashboard/productLists']) {
      await page.goto(`${publicUrl}${farmerPage}`);
      await page.waitForURL(`${publicUrl}/dashboard/buyer`);
    }
    // The reset page is open to anyone.
    await page.goto(`${publicUrl}/profile`);
    await page.waitForURL(`${publicUrl}/dashboard/buyer`);
  });

  it('sends a farmer opening buyer pages to /dashboard/farmer', async () => {
    const { page } = await freshPage();
    await signIn(page, farmer.email, farmer.password, '/dashboard/farmer');
    for (const buyerPage of ['/dashboard/buyer', '/dashboard/cart', '/dashboard/buyer/some-product']) {
      await page.goto(`${publicUrl}${buyerPage}`);
      await page.waitForURL(`${publicUrl}/dashboard/farmer`);
    }
    await sidebar(page).getByRole('link', { name: 'Product Lists' }).click();
    await page.waitForURL(`${publicUrl}/dashboard/productLists`);
    // The URL changes before the sidebar re-renders: wait for the mark rather than read it once.
    await expect.poll(() => sidebar(page).getByRole('link', { name: 'Product Lists' }).getAttribute('aria-current')).toBe('page');
  });

  it('asks for confirmation before logging out, then signs out', async () => {
    const { page } = await freshPage();
    await signIn(page, buyer.email, buyer.password, '/dashboard/buyer');
    await sidebar(page).getByRole('button', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Logout' });
    await dialog.getByText('Are you sure you want to logout?').waitFor();
    await screenshot(page, 'identity-confirm-logout');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/dashboard/buyer');

    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await dialog.getByRole('button', { name: 'Yes, Logout' }).click();
    // Back on the landing page (where the toast can be read; /login would open Keycloak's page at once).
    await backInApp(page, '/');
    await toast(page, 'Logged out successfully').waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Join now' }).waitFor();
    await page.goto(`${publicUrl}/dashboard/buyer`);
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
  });

  it('opens the small-screen menu (green, 40% of the width) and closes it with the close icon', async () => {
    const { page } = await freshPage({ width: 375, height: 812 });
    await signIn(page, farmer.email, farmer.password, '/dashboard/farmer');
    expect(await sidebar(page).isVisible()).toBe(false);
    const drawer = page.getByRole('navigation', { name: 'Dashboard menu (small screens)' });
    expect(await drawer.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('link', { name: 'Product Lists' }).waitFor();
    await page.waitForTimeout(400); // the slide-in
    const box = await drawer.boundingBox();
    expect(box?.x).toBe(0);
    expect(box?.width).toBeCloseTo(375 * 0.4, 0);
    expect(await drawer.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(21, 128, 61)');
    expect(await drawer.getByRole('link', { name: 'Add Product' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'identity-small-screen-menu');
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('shows "Your account is partially set up" when the profile is pending, and "Create my profile now" creates it', async () => {
    const account = await verifiedAccount('buyer');
    const { page } = await freshPage();
    await page.goto(`${publicUrl}/login`);
    await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'));
    // Arrive without the shell's "login started" mark: a session that skipped the first-login step.
    await page.evaluate(() => sessionStorage.removeItem('tuber:login-started'));
    await page.locator('#username').fill(account.email);
    await page.locator('#password').fill(account.password);
    await page.locator('#kc-login').click();
    await backInApp(page, '/dashboard/buyer');
    const notice = page.getByRole('region', { name: 'Account setup' });
    await notice.getByText('Your account is partially set up').waitFor();
    await screenshot(page, 'identity-partially-set-up');
    await notice.getByRole('button', { name: 'Create my profile now' }).click();
    await toast(page, 'Your buyer profile has been created!').waitFor({ timeout: 20_000 });
    await notice.waitFor({ state: 'hidden' });
    const { accessToken } = await signInWithPassword(account.email, account.password);
    expect((await api('GET', '/api/profile/me', { token: accessToken })).status).toBe(200);
  });
});

describe('token lifetime', () => {
  const refreshRequest = (page: Page) =>
    // The auth service refreshes the kept sign-in (docs/adr/0050); the page asks it for the new token.
    // Resolves on the answer: a second refresh while one is in flight joins it instead of asking again.
    page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/session/token' && response.ok(), {
      timeout: 15_000,
    });

  it('refreshes the 5-minute access token 30 s before it expires, and again after the clock jumps past expiry (sleep, hidden tab)', async () => {
    const account = await verifiedAccount('farmer');
    const { page } = await freshPage();
    await page.clock.install(); // time flows normally; the test jumps it
    await signIn(page, account.email, account.password, '/dashboard/farmer');

    const timerRefresh = refreshRequest(page);
    await page.clock.fastForward('04:35');
    await timerRefresh;
    await page.waitForTimeout(200); // the shell stores the new token after the response

    // A laptop asleep past the token's expiry: the clock jumps, the tab comes back. (Playwright's clock fires
    // due timers on a jump, so this checks the outcome — a fresh token — not which of the timer or the
    // visibility handler asked first.)
    const now = await page.evaluate(() => Date.now());
    const visibleRefresh = refreshRequest(page);
    await page.clock.setSystemTime(now + 285_000);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await visibleRefresh;

    await page.getByRole('banner').getByRole('link', { name: 'Go to Profile' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/farmer');
  });

  it('stays signed in when a refresh fails for want of a network, and refreshes once it is back', async () => {
    const account = await verifiedAccount('farmer');
    const { page } = await freshPage();
    await page.clock.install();
    await signIn(page, account.email, account.password, '/dashboard/farmer');

    // The auth service cannot be reached (a phone between networks) when the refresh falls due.
    const tokenUrl = '**/api/auth/session/token';
    let refused = 0;
    await page.route(tokenUrl, (route) => {
      refused += 1;
      return route.abort('internetdisconnected');
    });
    await page.clock.fastForward('04:35');
    await expect.poll(() => refused).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(await page.getByRole('banner').getByRole('link', { name: 'Go to Profile' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dashboard/farmer');

    // Back online: the retry gets a fresh token.
    await page.unroute(tokenUrl);
    const retried = refreshRequest(page);
    await page.clock.fastForward('00:11');
    await retried;
    expect(await page.getByRole('banner').getByRole('link', { name: 'Go to Profile' }).isVisible()).toBe(true);
  });
});
