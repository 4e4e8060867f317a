// Sign-up and sign-in on a 360 px phone (issue 9, item 11), in headless Chromium through the gateway: a new
// farmer from the landing page to the dashboard, with every screen they act on counted, photographed
// (test-artifacts/onboarding-*.png) and checked to fit the phone without sideways scrolling; then each of
// Keycloak's themed pages: the product's header, font and buttons, a show-password button, "Remember me",
// no inline script, and the copy that says 8 characters where the spec said 6.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/accounts.js';
import { firstLink, waitForMail } from '../support/mail.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { accountIdByEmail, backInApp, closeBrowserTest, requireIdentityStack, submitKeycloakLogin, toast } from './support/identity.js';

const phone = { width: 360, height: 740 };
const headline = 'Fresh from Earth, available within your reach';
const green = 'rgb(21, 128, 61)';
const password = 'Yam-harvest-2026';
const onKeycloak = (url: URL) => url.pathname.startsWith('/auth/realms/tuber/');

let browser: Browser;
const contexts: BrowserContext[] = [];
const accountIds = new Set<string>();

async function phonePage(): Promise<{ page: Page; errors: string[]; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: phone, isMobile: true, hasTouch: true });
  contexts.push(context);
  const page = await context.newPage();
  return { page, errors: collectPageErrors(page), context };
}

/** No sideways scrolling: the page is no wider than the phone. */
async function expectFitsThePhone(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what} (${page.url()}) scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/** Nothing a Content-Security-Policy without 'unsafe-inline' would refuse: no inline <script>, no on* attributes. */
async function expectNoInlineScript(page: Page) {
  const inline = await page.evaluate(() => ({
    scripts: Array.from(document.scripts).filter((script) => !script.src).length,
    handlers: Array.from(document.querySelectorAll('*')).flatMap((element) =>
      Array.from(element.attributes)
        .filter((attribute) => attribute.name.startsWith('on'))
        .map((attribute) => `${element.tagName.toLowerCase()}[${attribute.name}]`),
    ),
  }));
  expect(inline).toEqual({ scripts: 0, handlers: [] });
}

/** Keycloak's page in the product's clothes: wordmark home, the product's font, green pill buttons. */
async function expectProductLook(page: Page, button: Locator) {
  const wordmark = page.getByRole('banner').getByRole('link', { name: 'Tuber Market home' });
  expect(new URL((await wordmark.getAttribute('href'))!, page.url()).href).toBe(`${publicUrl}/`);
  expect(await wordmark.evaluate((el) => getComputedStyle(el).color)).toBe(green);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^system-ui/);
  const look = await button.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, radius: style.borderTopLeftRadius, height: el.getBoundingClientRect().height };
  });
  expect(look.background).toBe(green);
  expect(parseFloat(look.radius)).toBeGreaterThanOrEqual(22); // the pill: fully rounded
  expect(look.height).toBeGreaterThanOrEqual(44); // a thumb's target
  await expectNoInlineScript(page);
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function keycloakAdmin() {
  const client = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
  await client.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  return client;
}

beforeAll(async () => {
  await requireIdentityStack();
  browser = await launchBrowser();
});

afterAll(async () => closeBrowserTest(browser, contexts, accountIds));

describe('a new farmer on a 360 px phone', () => {
  it('goes from the landing page to the dashboard in 9 screens (the e-mail one of them), each fitting the phone', async () => {
    const { page, errors, context } = await phonePage();
    const screens: string[] = [];
    const screen = async (name: string) => {
      screens.push(name);
      await expectFitsThePhone(page, name);
      await screenshot(page, `onboarding-${screens.length}-${name.replaceAll(' ', '-')}`);
    };
    // 67 characters without a space: must wrap inside the "Account Created!" card.
    const email = `e2e-new-farmer-with-a-rather-long-address-${randomUUID().slice(0, 8)}@test.tuber.local`;

    await page.goto(`${publicUrl}/`);
    await page.getByRole('heading', { level: 1, name: headline }).waitFor();
    await screen('landing');

    await page.getByRole('banner').getByRole('link', { name: 'Join now' }).click();
    await page.getByRole('link', { name: 'Join as a farmer' }).waitFor();
    await screen('onboarding');

    await page.getByRole('link', { name: 'Join as a farmer' }).click();
    await page.getByRole('heading', { name: 'Create New Farmer Account' }).waitFor();
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Grower');
    await page.getByLabel('Farm / Business Name').fill('Ada Tubers');
    await page.getByRole('checkbox', { name: 'yam' }).check();
    await page.getByLabel('Farm Location / Farm Address').fill('Ibadan, Oyo State');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone Number').fill('+2348031234567');
    await page.getByText('At least 8 characters').waitFor();
    // The spec's 6 characters are not enough any more: refused here, before anything is sent.
    await page.getByLabel('Password', { exact: true }).fill('Yam-123');
    await page.getByLabel('Confirm Password').fill('Yam-123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await toast(page, 'Password must be at least 8 characters long').waitFor();
    expect(await accountIdByEmail(email)).toBeUndefined();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill(password);
    // Show/Hide password, as on Keycloak's login page.
    const passwordInput = page.getByLabel('Password', { exact: true });
    await page.getByRole('button', { name: 'Show password' }).first().click();
    expect(await passwordInput.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).first().click();
    expect(await passwordInput.getAttribute('type')).toBe('password');
    await screen('sign-up form');

    await page.getByRole('button', { name: 'Sign Up' }).click();
    await toast(page, 'Registration successful! Please verify your email.').waitFor();
    const card = page.getByRole('region', { name: 'Account Created!' });
    await card.waitFor();
    // The auth service answers at once and makes the account just after (the same answer for any address).
    await expect.poll(() => accountIdByEmail(email), { timeout: 15_000 }).toBeTruthy();
    accountIds.add((await accountIdByEmail(email))!);
    // The long address wraps inside the card; the card stays inside the phone.
    const cardBox = (await card.boundingBox())!;
    const addressBox = (await card.getByText(email).boundingBox())!;
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(phone.width);
    expect(addressBox.x + addressBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    // The product's own resend, with the spec's toast (the auth service's cooldown may hold the mail back,
    // its answer is the same either way).
    await card.getByRole('button', { name: 'Resend verification' }).click();
    await toast(page, 'Verification email resent! Please check your inbox.').waitFor();
    expect(await card.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');
    await screen('account created');

    // The mail, branded like the product's reset mail: looked at on the phone, then followed.
    const mail = await waitForMail(email, /Verify your Tuber Market e-mail address/);
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.html).toContain('Tuber Market');
    expect(mail.html).toContain('Verify my e-mail');
    const link = firstLink(mail.text, 'action-token');
    expect(link, mail.text).toBeTruthy();
    await page.setContent(mail.html);
    await screen('verification e-mail');

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Confirm your e-mail address' }).waitFor();
    await expectProductLook(page, page.getByRole('link', { name: 'Continue', exact: true }));
    await screen('confirm e-mail');

    await page.getByRole('link', { name: 'Continue', exact: true }).click();
    await page.getByRole('heading', { name: 'Email Verified' }).waitFor();
    // One way on, into the product — not a dead "Back to Login".
    const onward = page.getByRole('main').getByRole('link');
    expect(await onward.allInnerTexts()).toEqual(['Continue to Login']);
    await expectProductLook(page, onward);
    await screen('e-mail verified');

    await onward.click();
    await page.waitForURL(onKeycloak);
    await page.locator('#username').waitFor();
    await expectProductLook(page, page.locator('#kc-login'));
    const rememberMe = page.getByRole('checkbox', { name: 'Remember me' });
    expect(await rememberMe.isVisible()).toBe(true);
    await page.locator('#username').fill(email);
    await page.locator('#password').fill(password);
    await rememberMe.check();
    await screen('login');

    await page.locator('#kc-login').click();
    await backInApp(page, '/dashboard/farmer');
    await toast(page, 'Login successful!').waitFor();
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await menuButton.waitFor();
    await page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor(); // the farmer remote's page
    await screen('dashboard');

    // Toasts never cover the phone's Menu button.
    const menuBox = (await menuButton.boundingBox())!;
    const toastBoxes = await page
      .locator('[role="status"], [role="alert"]')
      .evaluateAll((nodes) =>
        nodes.map((node) => node.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }),
      );
    expect(toastBoxes.length).toBeGreaterThan(0);
    for (const box of toastBoxes) expect(overlaps(box, menuBox), JSON.stringify({ toast: box, menu: menuBox })).toBe(false);
    await menuButton.click(); // nothing in the way
    await page.getByRole('navigation', { name: 'Dashboard menu (small screens)' }).getByRole('link', { name: 'Product Lists' }).waitFor();

    // "Remember me": Keycloak's session cookie outlives the browser, for 30 days.
    const identity = (await context.cookies()).find((cookie) => cookie.name === 'KEYCLOAK_IDENTITY');
    expect(identity?.expires ?? -1).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);

    console.log(`[onboarding] ${screens.length} screens from the landing page to the dashboard: ${screens.join(' → ')}`);
    expect(screens).toHaveLength(9);
    expect(errors.filter((e) => !/favicon|status of 40[14]/.test(e))).toEqual([]);
  });
});

describe("Keycloak's pages on a 360 px phone", () => {
  it('login: the product look, a working show-password button, Remember me, and the product links', async () => {
    const { page } = await phonePage();
    await page.goto(`${publicUrl}/login`);
    await page.waitForURL(onKeycloak);
    await page.locator('#username').waitFor();
    await expectProductLook(page, page.locator('#kc-login'));
    await expectFitsThePhone(page, 'login');
    expect(await page.getByRole('link', { name: 'Forgot Password?' }).getAttribute('href')).toBe(`${publicUrl}/forgot-password`);
    expect(await page.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(`${publicUrl}/onboarding`);
    await page.getByRole('checkbox', { name: 'Remember me' }).waitFor();

    await page.locator('#password').fill('not-the-password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.locator('#password').getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await page.locator('#password').getAttribute('type')).toBe('password');
    await screenshot(page, 'keycloak-login-phone');

    // A wrong password is said on the page, which still fits.
    await page.locator('#username').fill('nobody@test.tuber.local');
    await page.locator('#kc-login').click();
    await page.getByText('Invalid email or password.').waitFor();
    await expectFitsThePhone(page, 'login with an error');
    await expectNoInlineScript(page);
    await screenshot(page, 'keycloak-login-error-phone');
  });

  it('error pages (Keycloak registration is off, so is its reset): the product look and a way back', async () => {
    const { page } = await phonePage();
    await page.goto(`${publicUrl}/login`);
    await page.waitForURL(onKeycloak);
    await page.locator('#username').waitFor();
    const loginUrl = new URL(page.url());
    for (const [name, path] of [
      ['registration', '/auth/realms/tuber/protocol/openid-connect/registrations'],
      ['reset', '/auth/realms/tuber/login-actions/reset-credentials'],
    ] as const) {
      await page.goto(`${publicUrl}${path}${loginUrl.search}`);
      const back = page.getByRole('link', { name: 'Back to Tuber Market' });
      await back.waitFor();
      expect(new URL((await back.getAttribute('href'))!, page.url()).href).toBe(`${publicUrl}/`);
      await expectProductLook(page, back);
      await expectFitsThePhone(page, name);
      await screenshot(page, `keycloak-${name}-phone`);
    }
  });

  it("Keycloak's logout question (a logout the product did not start): the product look, one click", async () => {
    const { page } = await phonePage();
    await page.goto(`${publicUrl}/auth/realms/tuber/protocol/openid-connect/logout`);
    const logout = page.getByRole('button', { name: 'Logout' });
    await logout.waitFor();
    await expectProductLook(page, logout);
    await expectFitsThePhone(page, 'logout question');
    await screenshot(page, 'keycloak-logout-confirm-phone');
  });

  it("Keycloak's own new-password page asks for 8 characters, with show-password buttons", async () => {
    const account = await createAccount({ role: 'buyer' });
    accountIds.add(account.id);
    const admin = await keycloakAdmin();
    await admin.users.update({ id: account.id }, { requiredActions: ['UPDATE_PASSWORD'] });
    const { page } = await phonePage();
    await submitKeycloakLogin(page, account.email, account.password);
    await page.getByRole('heading', { name: 'Create New Password' }).waitFor();
    await expectFitsThePhone(page, 'update password');
    await page.locator('#password-new').fill('Cassava');
    await page.locator('#password-confirm').fill('Cassava');
    await page.getByRole('button', { name: 'Show password' }).first().click();
    expect(await page.locator('#password-new').getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password must be at least 8 characters long').waitFor();
    await expectProductLook(page, page.getByRole('button', { name: 'Update Password' }));
    await expectFitsThePhone(page, 'update password with an error');
    await screenshot(page, 'keycloak-update-password-phone');
  });
});
