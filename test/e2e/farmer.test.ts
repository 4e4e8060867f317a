// The farmer side in headless Chromium against the real servers: a farmer fills the Add Product form,
// uploads real photos, sees the nutrition values fill in, posts, finds the product in "All Product List"
// with a 2-decimal naira price, expands the description, deletes it and sees it gone.
// Inside the shell after signing in on Keycloak's login page (the product as people use it); and, when
// FARMER_E2E_STANDALONE names a farmer dev server (`FARMER_PORT=<port> npm run dev -w frontends/farmer`), in the
// remote running alone with a token. Production builds ship no standalone page (ADR 0019).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { api, eventually, photo } from '../support/api.js';
import { signInWithPassword } from '../support/keycloak.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';

const productName = `Ọ̀fọ́ white yam ${Date.now().toString(36)}`;
const description = 'Freshly harvested white yam tubers from our family farm near the Ogun river, dried in shade and packed by hand.';
const previewWords = description.split(' ').slice(0, 10).join(' ');

let browser: Browser;
let photoDir: string;
let photoFiles: string[];
let notAPhoto: string;
const accounts: string[] = [];
const standalone = process.env.FARMER_E2E_STANDALONE?.replace(/\/$/, '');

beforeAll(async () => {
  photoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmer-e2e-'));
  photoFiles = [];
  for (const [i, hue] of [20, 120, 220].entries()) {
    const file = path.join(photoDir, `yam harvest ${i + 1}.jpg`);
    fs.writeFileSync(file, await photo(1600, 1200, hue));
    photoFiles.push(file);
  }
  notAPhoto = path.join(photoDir, 'notes.jpg');
  fs.writeFileSync(notAPhoto, 'a shopping list, not a photo');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  // Best effort: a stopped Keycloak must not turn passed tests into a failed file.
  await Promise.all(accounts.map((id) => deleteAccount(id).catch(() => undefined)));
  if (photoDir) fs.rmSync(photoDir, { recursive: true, force: true });
});

async function newFarmer() {
  const account = await createAccount({ role: 'farmer', businessName: 'Ada Farms', location: 'Ibadan', tuber: ['yam', 'cassava'] });
  accounts.push(account.id);
  return account;
}

/**
 * Waits until the catalog knows the farmer (its projection arrives by event after the profile is created):
 * a post with unknown photos is then refused for the photos (400), not for the missing profile (409).
 */
async function catalogKnowsFarmer(token: string) {
  const probe = {
    product_name: 'probe',
    description: 'probe',
    price: 1,
    kg: 1,
    tuber_type: 'yam',
    image_ids: ['none-1', 'none-2'],
    cultural: 'probe',
  };
  const answer = await eventually(
    () => api('POST', '/api/catalog/products', { token, json: probe }),
    (a) => a.status !== 409,
    20_000,
  );
  expect(answer.status).toBe(400);
}

/** Console errors other than the refused text file's 400 (the browser logs every failed request). */
const unexpected = (errors: string[]) => errors.filter((e) => !e.includes('favicon') && !e.includes('status of 400 (Bad Request)'));

function toast(page: Page, text: string): Locator {
  return page
    .getByRole('status')
    .filter({ hasText: text })
    .or(page.getByRole('alert').filter({ hasText: text }))
    .first();
}

/** From the Add Product page to a deleted product, through every step of the spec's farmer flow. */
async function postListAndDelete(page: Page, shotPrefix: string) {
  await page.getByRole('heading', { name: 'Add Product' }).waitFor();
  const form = page.getByRole('form', { name: 'Add Product' });
  const post = form.getByRole('button', { name: 'Post Product' });
  const fileInput = form.locator('input[type="file"]');

  // Field rules of spec §5 as the browser sees them.
  expect(await form.getByLabel('Description').getAttribute('rows')).toBe('6');
  expect(await form.getByLabel('Cultural Values').getAttribute('rows')).toBe('4');
  for (const label of ['Price (₦)', 'KG']) {
    const input = form.getByLabel(label);
    expect(await input.getAttribute('type')).toBe('number');
    expect(await input.getAttribute('min')).toBe('0');
    expect(await input.getAttribute('step')).toBe('0.01');
  }
  expect(await fileInput.getAttribute('multiple')).not.toBeNull();
  expect(await fileInput.getAttribute('accept')).toBe('image/*');
  const tuberOptions = await form.getByLabel('Tuber Type').locator('option').allTextContents();
  expect(tuberOptions).toEqual(['none', 'yam', 'cassava']);

  // One photo is refused before anything is sent.
  await fileInput.setInputFiles(photoFiles.slice(0, 1));
  await toast(page, 'Please select between 2 to 5 images.').waitFor();
  expect(await form.getByRole('list', { name: 'Chosen photos' }).count()).toBe(0);

  // A text file named .jpg is refused by the media service, which reads the content: its reason is shown.
  await fileInput.setInputFiles([photoFiles[0]!, notAPhoto]);
  await toast(page, 'Failed to upload image: This file is not an image we can read.').waitFor();
  await form
    .getByRole('listitem')
    .filter({ hasText: 'notes.jpg' })
    .getByText('This file is not an image we can read.', { exact: false })
    .waitFor();

  await form.getByLabel('Product Name').fill(productName);
  await form.getByLabel('Description').fill(description);
  await form.getByLabel('Price (₦)').fill('2500.5');
  await form.getByLabel('KG').fill('12.5');
  await form.getByLabel('Cultural Values').fill('Central to the New Yam festival, shared at the first harvest.');
  await form.getByLabel('Health Benefits (optional)').fill('Rich in potassium and dietary fiber.');

  // Post Product is disabled while the photos upload: record every state the button goes through.
  await post.evaluate((button) => {
    const seen: boolean[] = [];
    (window as unknown as { postStates: boolean[] }).postStates = seen;
    new MutationObserver(() => seen.push((button as HTMLButtonElement).disabled)).observe(button, {
      attributes: true,
      attributeFilter: ['disabled'],
    });
  });
  await fileInput.setInputFiles(photoFiles);
  const tiles = form.getByRole('list', { name: 'Chosen photos' }).getByRole('listitem');
  await expect.poll(() => tiles.count()).toBe(3);
  for (const file of photoFiles) {
    const thumb = form.getByRole('img', { name: path.basename(file) });
    await thumb.waitFor();
    expect(await thumb.getAttribute('src')).toMatch(new RegExp(`^${publicUrl}/files/`));
    await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }
  await expect.poll(() => post.isEnabled()).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { postStates: boolean[] }).postStates)).toEqual([true, false]);

  // Tuber type → nutrition values from the nutrition service; "none" clears them.
  const yam = (await api('GET', '/api/nutrition/yam')).body;
  const nutrition = form.getByTestId('nutrition-values');
  await form.getByLabel('Tuber Type').selectOption('cassava');
  await nutrition.waitFor();
  await form.getByLabel('Tuber Type').selectOption('');
  await form.getByText('Choose a tuber type to fill in its nutrition values.').waitFor();
  expect(await nutrition.count()).toBe(0);
  await form.getByLabel('Tuber Type').selectOption('yam');
  await nutrition.getByText(`${yam.nutrition.calories.toFixed(2)} kcal`).waitFor();
  await nutrition.getByText(`${yam.nutrition.potassium.toFixed(2)} mg`).waitFor();
  await form.getByText(yam.source.reference, { exact: false }).waitFor();
  await screenshot(page, `${shotPrefix}-add-product`);

  await post.click();
  await toast(page, 'Product posted successfully!').waitFor();
  await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
  await page.getByRole('heading', { name: 'All Product List' }).waitFor();

  const card = page.getByRole('article', { name: productName });
  await card.waitFor();
  await card.getByText('₦2,500.50').waitFor();
  await card.getByText('12.5', { exact: true }).waitFor();
  await card.getByText('yam', { exact: true }).waitFor();
  await card.getByText('just now').waitFor();
  expect(await card.getByRole('img').count()).toBe(3);
  for (const img of await card.getByRole('img').all()) {
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }

  // Description: 10 words, then View more / View less.
  await card.getByText(`${previewWords}…`).waitFor();
  await card.getByRole('button', { name: 'View more' }).click();
  await card.getByText(description).waitFor();
  await screenshot(page, `${shotPrefix}-product-list`);
  await card.getByRole('button', { name: 'View less' }).click();
  await card.getByText(`${previewWords}…`).waitFor();

  // Delete asks first; Cancel keeps the product.
  await card.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete product' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await card.waitFor();

  await card.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
  await toast(page, 'Product deleted successfully!').waitFor();
  await card.waitFor({ state: 'detached' });
  await page.getByText('You have not posted any products yet.').waitFor();
}

describe('farmer side in the shell', () => {
  it('signs in on Keycloak, posts a product with photos and nutrition, lists it and deletes it', async () => {
    const farmer = await newFarmer();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${publicUrl}/login`);
      // The shell's /login page hands over to Keycloak's own login form.
      const keycloakForm = page.locator('#username');
      const loginButton = page.getByRole('main').getByRole('button', { name: 'Login' });
      await keycloakForm.or(loginButton).first().waitFor();
      if (await loginButton.isVisible()) await loginButton.click();
      await keycloakForm.waitFor();
      await page.locator('#username').fill(farmer.email);
      await page.locator('#password').fill(farmer.password);
      await page.locator('#kc-login').click();
      await page.waitForURL((url) => url.origin === publicUrl && !url.pathname.startsWith('/auth/'));

      // Back in the app: the first login creates the farmer profile; the catalog learns of it by event.
      const { accessToken } = await signInWithPassword(farmer.email, farmer.password);
      await eventually(
        () => api('GET', '/api/profile/me', { token: accessToken }),
        (a) => a.status === 200,
        20_000,
      );
      await catalogKnowsFarmer(accessToken);

      if (new URL(page.url()).pathname !== '/dashboard/farmer') await page.goto(`${publicUrl}/dashboard/farmer`);
      const uploads: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/media/images') uploads.push(request.resourceType());
      });
      await postListAndDelete(page, 'farmer-shell');
      // The shell hands the remote a token, so the photos go by XMLHttpRequest, the only way to see upload progress.
      expect(uploads.length).toBe(5);
      expect(new Set(uploads)).toEqual(new Set(['xhr']));
      const mine = await api('GET', '/api/catalog/products/mine', { token: accessToken });
      expect(mine.body.items).toEqual([]);
      expect(unexpected(errors)).toEqual([]);
    } catch (error) {
      await screenshot(page, 'farmer-shell-failure').catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  });
});

describe.skipIf(!standalone)('farmer remote on its own (dev server)', () => {
  it('posts, lists and deletes a product with a signed-in farmer token', async () => {
    const farmer = await newFarmer();
    const { accessToken } = await signInWithPassword(farmer.email, farmer.password);
    expect((await api('POST', '/api/profile/me', { token: accessToken })).status).toBe(201);
    await catalogKnowsFarmer(accessToken);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectPageErrors(page);
    try {
      await page.addInitScript((token) => window.sessionStorage.setItem('tuber.farmer.dev.accessToken', token), accessToken);
      // The remote's own page on its dev server; its router starts at the add-product page.
      await page.goto(`${standalone}/`);
      await page.getByText(`Standalone, signed in as ${farmer.email}`).waitFor();
      const uploads: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/media/images') uploads.push(request.resourceType());
      });
      await postListAndDelete(page, 'farmer-standalone');
      // With a token at hand the photos go by XMLHttpRequest, the only way to see upload progress.
      expect(uploads.length).toBe(5);
      expect(new Set(uploads)).toEqual(new Set(['xhr']));

      // The profile page: read-only fields under the business name.
      await page.getByRole('link', { name: 'profile' }).click();
      await page.getByRole('heading', { name: 'Ada Farms' }).waitFor();
      for (const [label, value] of [
        ['First Name', 'Test'],
        ['Last Name', 'Farmer'],
        ['Email', farmer.email],
        ['Phone Number', '+2348030000000'],
      ] as const) {
        const input = page.getByLabel(label, { exact: true });
        expect(await input.inputValue()).toBe(value);
        expect(await input.isDisabled()).toBe(true);
      }
      await screenshot(page, 'farmer-standalone-profile');
      expect(unexpected(errors)).toEqual([]);
    } catch (error) {
      await screenshot(page, 'farmer-standalone-failure').catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  });
});
