// Editing the profile in headless Chromium on a 360 px phone, against the real servers (issue 11): a farmer
// who ticked no tubers at sign-up opens the profile, adds yam, saves, and can then post a yam product on
// /dashboard/farmer (the catalog learns the tuber through FarmerProfileChanged); a buyer changes the phone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount, keycloakUser } from '../support/accounts.js';
import { api, eventually, photo } from '../support/api.js';
import { signInWithPassword } from '../support/keycloak.js';
import { firstLink, waitForMail } from '../support/mail.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { backInApp, requireIdentityStack, submitKeycloakLogin, toast, uniqueEmail } from './support/identity.js';

let browser: Browser;
let photoDir: string;
let photoFiles: string[];
const accounts: string[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  await requireIdentityStack();
  photoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profile-e2e-'));
  photoFiles = [];
  for (const [i, hue] of [40, 160].entries()) {
    const file = path.join(photoDir, `yam ${i + 1}.jpg`);
    fs.writeFileSync(file, await photo(1200, 900, hue));
    photoFiles.push(file);
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all(accounts.map((id) => deleteAccount(id).catch(() => undefined)));
  if (photoDir) fs.rmSync(photoDir, { recursive: true, force: true });
});

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  contexts.push(context);
  return context.newPage();
}

/** Signs in on Keycloak's page through the shell; back in the app once the first login made the profile. */
async function signIn(page: Page, account: { email: string; password: string }): Promise<string> {
  await page.goto(`${publicUrl}/login`);
  await submitKeycloakLogin(page, account.email, account.password);
  await backInApp(page, /^\/(dashboard|profile)/);
  const { accessToken } = await signInWithPassword(account.email, account.password);
  const profile = await eventually(
    () => api('GET', '/api/profile/me', { token: accessToken }),
    (a) => a.status === 200,
    20_000,
  );
  expect(profile.status).toBe(200);
  return accessToken;
}

/** True when the page is no wider than the screen (nothing to scroll sideways on a phone). */
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('a farmer who ticked no tubers at sign-up', () => {
  it('adds yam in the profile, saves, and can then post a yam product', async () => {
    // Sign-up has no minimum of tubers (spec §5): this farmer grows none yet.
    const farmer = await createAccount({ role: 'farmer', businessName: 'Bisi Farms', location: 'Ogbomoso', tuber: [] });
    accounts.push(farmer.id);
    const page = await phonePage();
    const errors = collectPageErrors(page);
    try {
      const token = await signIn(page, farmer);
      expect((await api('GET', '/api/profile/me', { token })).body.tuber).toEqual([]);

      await page.goto(`${publicUrl}/dashboard/farmerprofile`);
      await page.getByRole('heading', { name: 'Bisi Farms' }).waitFor();
      const grown = page.getByTestId('tubers-grown');
      await grown.getByText('None yet.', { exact: false }).waitFor();
      await screenshot(page, 'profile-farmer-no-tubers-360');

      await page.getByRole('button', { name: 'Edit profile' }).click();
      const form = page.getByRole('form', { name: 'Edit profile' });
      await form.waitFor();
      const boxes = form.getByRole('checkbox');
      expect(await boxes.count()).toBe(7);
      for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
      await form.getByText('With no tubers ticked you cannot post products', { exact: false }).waitFor();
      expect(await form.getByLabel('Farm / Business Name').inputValue()).toBe('Bisi Farms');
      expect(await form.getByLabel('Farm Location / Farm Address').inputValue()).toBe('Ogbomoso');

      // A phone the service would refuse is caught before sending.
      await form.getByLabel('Phone Number').fill('12-34');
      await form.getByRole('checkbox', { name: 'yam' }).check();
      await form.getByRole('button', { name: 'Save changes' }).click();
      await form.getByText('Enter a Nigerian phone number', { exact: false }).waitFor();
      await form.getByLabel('Phone Number').fill('0803 444 5555');
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'profile-farmer-edit-360');

      const patches: unknown[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PATCH' && new URL(request.url()).pathname === '/api/profile/me') patches.push(request.postDataJSON());
      });
      await form.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Profile updated successfully!').waitFor();
      // Only what changed goes to the server.
      expect(patches).toEqual([{ phone: '0803 444 5555', tuber: ['yam'] }]);
      await grown.getByText('yam', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Edit profile' }).waitFor();
      // Stored as E.164 (issue 12), shown the way people write it.
      expect(await page.getByLabel('Phone Number').inputValue()).toBe('+234 803 444 5555');
      await screenshot(page, 'profile-farmer-saved-360');
      expect((await api('GET', '/api/profile/me', { token })).body).toMatchObject({ tuber: ['yam'], phone: '2348034445555' });

      // The add-product form offers yam now, and the catalog accepts it.
      await page.goto(`${publicUrl}/dashboard/farmer`);
      await page.getByRole('heading', { name: 'Add Product' }).waitFor();
      const product = page.getByRole('form', { name: 'Add Product' });
      await expect.poll(() => product.getByLabel('Tuber Type').locator('option').allTextContents()).toEqual(['none', 'yam']);
      const name = `Ogbomoso yam ${Date.now().toString(36)}`;
      await product.getByLabel('Product Name').fill(name);
      await product.getByLabel('Description').fill('Big white yams from Ogbomoso, dug this week.');
      await product.getByLabel('Price per kg (₦)').fill('1500');
      await product.getByLabel('Quantity available (kg)').fill('40');
      await product.getByLabel('Cultural Values').fill('Pounded yam for the family on Sundays.');
      await product.getByLabel('Tuber Type').selectOption('yam');
      await product.locator('input[type="file"]').setInputFiles(photoFiles);
      await product.getByTestId('photo-count').getByText('2 of 2–5 photos').waitFor();
      await expect.poll(() => product.getByRole('button', { name: 'Post Product' }).isEnabled(), { timeout: 30_000 }).toBe(true);
      await product.getByRole('button', { name: 'Post Product' }).click();
      await toast(page, 'Product posted successfully!').waitFor({ timeout: 20_000 });
      await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
      await page.getByRole('article', { name }).waitFor();
      await screenshot(page, 'profile-farmer-posted-yam-360');
      const mine = await api('GET', '/api/catalog/products/mine', { token });
      expect(mine.body.items.map((p: { product_name: string; tuber_type: string }) => [p.product_name, p.tuber_type])).toEqual([
        [name, 'yam'],
      ]);
      expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
    } catch (error) {
      await screenshot(page, 'profile-farmer-failure').catch(() => undefined);
      throw error;
    }
  });
});

describe('a buyer', () => {
  it('changes the phone number on the profile page', async () => {
    const buyer = await createAccount({ role: 'buyer' });
    accounts.push(buyer.id);
    const page = await phonePage();
    const errors = collectPageErrors(page);
    try {
      const token = await signIn(page, buyer);
      await page.goto(`${publicUrl}/dashboard/buyerprofile`);
      await page.getByRole('heading', { name: 'Buyer Details' }).waitFor();
      const phone = page.getByLabel('Phone number');
      await expect.poll(() => phone.inputValue()).toBe('+2348030000000');
      expect(await phone.isDisabled()).toBe(true);

      await page.getByRole('button', { name: 'Edit profile' }).click();
      await expect.poll(() => phone.isEnabled()).toBe(true);
      // The e-mail address is not edited here (Keycloak verifies a new one).
      expect(await page.getByLabel('Email').isDisabled()).toBe(true);
      await phone.fill('0809 111 2222');
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'profile-buyer-edit-360');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Profile updated successfully!').waitFor();
      await page.getByRole('button', { name: 'Edit profile' }).waitFor();
      await expect.poll(() => phone.inputValue()).toBe('+234 809 111 2222');
      await expect.poll(() => phone.isDisabled()).toBe(true);
      await screenshot(page, 'profile-buyer-saved-360');
      expect((await api('GET', '/api/profile/me', { token })).body).toMatchObject({ user_type: 'buyer', phone: '2348091112222' });

      // An empty name is caught before sending; Cancel leaves the profile as it was.
      await page.getByRole('button', { name: 'Edit profile' }).click();
      await page.getByLabel('First name').fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('First name cannot be empty.').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await page.getByLabel('First name').inputValue()).toBe('Test');
      expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
    } catch (error) {
      await screenshot(page, 'profile-buyer-failure').catch(() => undefined);
      throw error;
    }
  });
});

describe('changing the e-mail address', () => {
  it("goes through Keycloak's verified e-mail update and reaches the profile once the new address is confirmed", async () => {
    const buyer = await createAccount({ role: 'buyer' });
    accounts.push(buyer.id);
    const page = await phonePage();
    try {
      const token = await signIn(page, buyer);
      await page.goto(`${publicUrl}/dashboard/buyerprofile`);
      await page.getByRole('button', { name: 'Change e-mail' }).click();
      // Keycloak's own page (application-initiated action UPDATE_EMAIL), in the product's theme.
      await page.waitForURL((url) => url.pathname.startsWith('/auth/realms/tuber/'), { timeout: 20_000 });
      const email = page.locator('#email');
      await email.waitFor();
      const newAddress = uniqueEmail('moved');
      await email.fill(newAddress);
      await screenshot(page, 'profile-change-email-keycloak-360');
      // The theme's own page: its button says what it does (Keycloak's base page reused "Update Password").
      await page.getByRole('button', { name: 'Send verification link' }).click();
      // Nothing changes until the new address is confirmed: Keycloak mails a link to it.
      await page.getByText(newAddress, { exact: false }).first().waitFor({ timeout: 20_000 });
      await screenshot(page, 'profile-change-email-sent-360');
      expect((await keycloakUser(buyer.id))?.email).toBe(buyer.email);

      const mail = await waitForMail(newAddress, /.+/);
      const link = firstLink(mail.text || mail.html, '/auth/realms/tuber/');
      expect(link).toBeTruthy();
      await page.goto(link!.replace(/^https?:\/\/[^/]+/, publicUrl));
      await expect.poll(async () => (await keycloakUser(buyer.id))?.email, { timeout: 20_000 }).toBe(newAddress);
      expect((await keycloakUser(buyer.id))?.emailVerified).toBe(true);
      await screenshot(page, 'profile-change-email-confirmed-360');
      // The auth service relays Keycloak's UPDATE_EMAIL event; the profile copies the verified address.
      const profile = await eventually(
        () => api('GET', '/api/profile/me', { token }),
        (a) => a.body?.email === newAddress,
        20_000,
      );
      expect(profile.body.email).toBe(newAddress);
    } catch (error) {
      await screenshot(page, 'profile-change-email-failure').catch(() => undefined);
      throw error;
    }
  });
});
