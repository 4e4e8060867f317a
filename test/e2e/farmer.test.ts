// The farmer side in headless Chromium against the real servers: a farmer fills the Add Product form,
// uploads real photos, sees the nutrition values fill in, posts, finds the product in "All Product List"
// with a 2-decimal naira price, expands the description, deletes it and sees it gone. Issue 11, on a 360 px
// phone: a product sold per heap with photos picked one at a time (one removed, one made the cover, the
// count shown), its price edited, then marked sold out with its photos changed, and an edit refused because
// the product changed elsewhere (409), offered for reload.
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

/** Waits until the page is done with every photo upload (Post Product enabled again). */
async function uploadsSettled(form: Locator) {
  await expect.poll(() => form.getByRole('button', { name: /Post Product|Save changes/ }).isEnabled()).toBe(true);
}

/** From the Add Product page to a deleted product, through every step of the spec's farmer flow. */
async function postListAndDelete(page: Page, shotPrefix: string) {
  await page.getByRole('heading', { name: 'Add Product' }).waitFor();
  const form = page.getByRole('form', { name: 'Add Product' });
  const post = form.getByRole('button', { name: 'Post Product' });
  const fileInput = form.locator('input[type="file"]');
  const count = form.getByTestId('photo-count');

  // Field rules of spec §5 as the browser sees them; "KG" is now the quantity in the selling unit (kg by default).
  expect(await form.getByLabel('Description').getAttribute('rows')).toBe('6');
  expect(await form.getByLabel('Cultural Values').getAttribute('rows')).toBe('4');
  for (const label of ['Price per kg (₦)', 'Quantity available (kg)']) {
    const input = form.getByLabel(label);
    expect(await input.getAttribute('type')).toBe('number');
    expect(await input.getAttribute('min')).toBe('0');
    expect(await input.getAttribute('step')).toBe('0.01');
  }
  expect(await fileInput.getAttribute('multiple')).not.toBeNull();
  expect(await fileInput.getAttribute('accept')).toBe('image/*');
  const tuberOptions = await form.getByLabel('Tuber Type').locator('option').allTextContents();
  expect(tuberOptions).toEqual(['none', 'yam', 'cassava']);

  await form.getByLabel('Product Name').fill(productName);
  await form.getByLabel('Description').fill(description);
  await form.getByLabel('Price per kg (₦)').fill('2500.5');
  await form.getByLabel('Quantity available (kg)').fill('12.5');
  await form.getByLabel('Cultural Values').fill('Central to the New Yam festival, shared at the first harvest.');
  await form.getByLabel('Health Benefits (optional)').fill('Rich in potassium and dietary fiber.');

  // One photo is taken (a phone gives one at a time), but posting with one is refused before anything is sent.
  await fileInput.setInputFiles(photoFiles.slice(0, 1));
  await count.getByText('1 of 2–5 photos').waitFor();
  await expect.poll(() => count.textContent()).toContain('add 1 more');
  await uploadsSettled(form);
  await form.getByLabel('Tuber Type').selectOption('yam');
  await post.click();
  await toast(page, 'Please select between 2 to 5 images.').waitFor();
  expect(new URL(page.url()).pathname).not.toBe('/dashboard/productLists');

  // A text file named .jpg is refused by the media service, which reads the content: its reason is shown;
  // it does not count, and it can be removed.
  await fileInput.setInputFiles([notAPhoto]);
  await toast(page, 'Failed to upload image: This file is not a photo we can read.').waitFor();
  const failedTile = form.getByRole('listitem').filter({ hasText: 'notes.jpg' });
  await failedTile.getByText('This file is not a photo we can read.', { exact: false }).waitFor();
  await expect.poll(() => count.textContent()).toContain('1 failed');
  await failedTile.getByRole('button', { name: 'Remove notes.jpg' }).click();
  await failedTile.waitFor({ state: 'detached' });

  // Post Product is disabled while the photos upload: record every state the button goes through.
  await post.evaluate((button) => {
    const seen: boolean[] = [];
    (window as unknown as { postStates: boolean[] }).postStates = seen;
    new MutationObserver(() => seen.push((button as HTMLButtonElement).disabled)).observe(button, {
      attributes: true,
      attributeFilter: ['disabled'],
    });
  });
  // Two more in one pick: they add to the first.
  await fileInput.setInputFiles(photoFiles.slice(1));
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
  await count.getByText('3 of 2–5 photos').waitFor();

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
  await card.getByText('₦2,500.50 per kg').waitFor();
  await card.getByText('12.5 kg', { exact: true }).waitFor();
  await card.getByText('Available', { exact: true }).waitFor();
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

  // Edit opens the form as posted; Cancel goes back without a change.
  await card.getByRole('link', { name: `Edit ${productName}` }).click();
  await page.getByRole('heading', { name: 'Edit Product' }).waitFor();
  const edit = page.getByRole('form', { name: 'Edit Product' });
  await expect.poll(() => edit.getByLabel('Price per kg (₦)').inputValue()).toBe('2500.5');
  expect(await edit.getByLabel('Quantity available (kg)').inputValue()).toBe('12.5');
  await expect.poll(() => edit.getByRole('list', { name: 'Chosen photos' }).getByRole('listitem').count()).toBe(3);
  await screenshot(page, `${shotPrefix}-edit-product`);
  await edit.getByRole('link', { name: 'Cancel' }).click();
  await page.getByRole('heading', { name: 'All Product List' }).waitFor();
  await card.waitFor();

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

/** Signs in through the shell's /login and Keycloak's form; back in the app once the catalog knows the farmer. */
async function signInThroughShell(page: Page, farmer: { email: string; password: string }): Promise<string> {
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
  return accessToken;
}

/** True when the page is no wider than the screen (nothing to scroll sideways on a phone). */
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('farmer side in the shell', () => {
  it('signs in on Keycloak, posts a product with photos and nutrition, lists it and deletes it', async () => {
    const farmer = await newFarmer();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectPageErrors(page);
    try {
      const accessToken = await signInThroughShell(page, farmer);

      if (new URL(page.url()).pathname !== '/dashboard/farmer') await page.goto(`${publicUrl}/dashboard/farmer`);
      const uploads: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/media/images') uploads.push(request.resourceType());
      });
      await postListAndDelete(page, 'farmer-shell');
      // The shell hands the remote a token, so the photos go by XMLHttpRequest, the only way to see upload progress.
      expect(uploads.length).toBe(4);
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

describe('issue 11 on a 360 px phone: units, photos one pick at a time, edits', () => {
  it('posts a product per heap with photos picked one at a time, edits its price, marks it sold out, and is told of an edit made elsewhere', async () => {
    const farmer = await newFarmer();
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await phone.newPage();
    const errors = collectPageErrors(page);
    const name = `Heap of Abuja yams ${Date.now().toString(36)}`;
    /** Image ids the media service gave, in the order the photos were picked. */
    const uploaded: string[] = [];
    page.on('response', async (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/media/images' && response.status() === 201)
        uploaded.push(((await response.json()) as { image_id: string }).image_id);
    });
    const sent = (method: string) => {
      const bodies: Record<string, unknown>[] = [];
      page.on('request', (request) => {
        if (request.method() === method && new URL(request.url()).pathname.startsWith('/api/catalog/products'))
          bodies.push(request.postDataJSON() as Record<string, unknown>);
      });
      return bodies;
    };
    const posts = sent('POST');
    const patches = sent('PATCH');
    /** The Idempotency-Key each product post carried (ADR 0059). */
    const postKeys: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/catalog/products')
        postKeys.push(request.headers()['idempotency-key']);
    });
    try {
      const token = await signInThroughShell(page, farmer);
      if (new URL(page.url()).pathname !== '/dashboard/farmer') await page.goto(`${publicUrl}/dashboard/farmer`);
      await page.getByRole('heading', { name: 'Add Product' }).waitFor();
      const form = page.getByRole('form', { name: 'Add Product' });
      const fileInput = form.locator('input[type="file"]');
      const count = form.getByTestId('photo-count');
      const perKg = form.getByTestId('price-per-kg');

      await form.getByLabel('Product Name').fill(name);
      await form.getByLabel('Description').fill('Six big tubers a heap, dug this week and dried in the shade.');
      await form.getByLabel('Selling unit').selectOption({ label: 'per heap' });
      expect(await form.getByLabel('Selling unit').locator('option').allTextContents()).toEqual([
        'per kg',
        'per tuber',
        'per heap',
        'per 50 kg bag',
        'per lot of 100 tubers',
      ]);
      await form.getByLabel('Price per heap (₦)').fill('2000');
      await form.getByLabel('Average weight per heap (kg)').fill('5');
      // ₦ per kg, live as the catalog will compute it.
      await expect.poll(() => perKg.textContent()).toBe('₦400.00 per kg');
      await form.getByLabel('Quantity available (heaps)').fill('12');
      await form.getByLabel('Cultural Values').fill('The king of crops, first eaten at the New Yam festival.');
      await form.getByLabel('Tuber Type').selectOption('yam');
      expect(await form.getByRole('radio', { name: 'Available' }).isChecked()).toBe(true);
      await count.getByText('0 of 2–5 photos').waitFor();

      // One photo at a time, as a phone's camera gives them; each adds to the others.
      await fileInput.setInputFiles(photoFiles[0]!);
      await expect.poll(() => count.textContent()).toBe('1 of 2–5 photos: add 1 more');
      await uploadsSettled(form);
      await form.getByRole('button', { name: 'Post Product' }).click();
      await toast(page, 'Please select between 2 to 5 images.').waitFor();
      await fileInput.setInputFiles(photoFiles[1]!);
      await expect.poll(() => count.textContent()).toContain('2 of 2–5 photos');
      await uploadsSettled(form);
      await fileInput.setInputFiles(photoFiles[2]!);
      await expect.poll(() => count.textContent()).toBe('3 of 2–5 photos: you can add 2 more');
      await uploadsSettled(form);
      const tiles = form.getByRole('list', { name: 'Chosen photos' }).getByRole('listitem');
      await expect.poll(() => tiles.count()).toBe(3);

      // Remove the second; make the third the cover.
      await form.getByRole('button', { name: `Remove ${path.basename(photoFiles[1]!)}` }).click();
      await expect.poll(() => count.textContent()).toBe('2 of 2–5 photos: you can add 3 more');
      await form.getByRole('button', { name: `Make cover: ${path.basename(photoFiles[2]!)}` }).click();
      await expect.poll(() => tiles.first().textContent()).toContain(path.basename(photoFiles[2]!));
      await tiles.first().getByText('Cover').waitFor();
      // Thumb-sized buttons.
      for (const button of await tiles.getByRole('button').all()) {
        const box = await button.boundingBox();
        expect(box!.height).toBeGreaterThanOrEqual(44);
      }
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'farmer-phone-add-product');

      await form.getByRole('button', { name: 'Post Product' }).click();
      await toast(page, 'Product posted successfully!').waitFor();
      await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
      expect(posts).toHaveLength(1);
      expect(postKeys, 'the post carries a key made for it, in the draft form').toEqual([expect.stringMatching(/^"[0-9a-f]{32}"$/)]);
      expect(posts[0]).toMatchObject({
        unit: 'heap',
        price: 2000,
        unit_weight_kg: 5,
        quantity: 12,
        status: 'available',
        tuber_type: 'yam',
      });
      expect(posts[0]!.image_ids).toEqual([uploaded[2], uploaded[0]]);

      const card = page.getByRole('article', { name });
      await card.waitFor();
      await card.getByText('₦2,000.00 per heap').waitFor();
      await card.getByText('₦400.00/kg').waitFor();
      await card.getByText('12 heaps', { exact: true }).waitFor();
      await card.getByText('Available', { exact: true }).waitFor();
      expect(await card.getByRole('img').count()).toBe(2);
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'farmer-phone-product-list');

      // Edit: the form as posted, the photos shown; a new price.
      await card.getByRole('link', { name: `Edit ${name}` }).click();
      await page.waitForURL((url) => /^\/dashboard\/productLists\/[^/]+\/edit$/.test(url.pathname));
      await page.getByRole('heading', { name: 'Edit Product' }).waitFor();
      const edit = page.getByRole('form', { name: 'Edit Product' });
      const price = edit.getByLabel('Price per heap (₦)');
      await expect.poll(() => price.inputValue()).toBe('2000');
      expect(await edit.getByLabel('Average weight per heap (kg)').inputValue()).toBe('5');
      expect(await edit.getByLabel('Quantity available (heaps)').inputValue()).toBe('12');
      expect(await edit.getByLabel('Product Name').inputValue()).toBe(name);
      const editTiles = edit.getByRole('list', { name: 'Chosen photos' }).getByRole('listitem');
      await expect.poll(() => editTiles.count()).toBe(2);
      await edit.getByTestId('photo-count').getByText('2 of 2–5 photos').waitFor();
      await price.fill('2500');
      await expect.poll(() => edit.getByTestId('price-per-kg').textContent()).toBe('₦500.00 per kg');
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'farmer-phone-edit-product');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Product updated successfully!').waitFor();
      await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
      // Only what changed, with the revision edited.
      expect(patches).toEqual([{ price: 2500, revision: 1 }]);
      await card.getByText('₦2,500.00 per heap').waitFor();
      await card.getByText('₦500.00/kg').waitFor();

      // Sold out, and the photos changed: one added, made the cover, one of the posted ones removed.
      await card.getByRole('link', { name: `Edit ${name}` }).click();
      await page.getByRole('heading', { name: 'Edit Product' }).waitFor();
      await expect.poll(() => edit.getByLabel('Price per heap (₦)').inputValue()).toBe('2500');
      await edit.getByRole('radio', { name: 'Sold out' }).check();
      await edit.locator('input[type="file"]').setInputFiles(photoFiles[1]!);
      await expect.poll(() => edit.getByTestId('photo-count').textContent()).toBe('3 of 2–5 photos: you can add 2 more');
      await uploadsSettled(edit);
      await edit.getByRole('button', { name: `Make cover: ${path.basename(photoFiles[1]!)}` }).click();
      await edit.getByRole('button', { name: 'Remove Photo 2' }).click();
      await expect.poll(() => editTiles.count()).toBe(2);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Product updated successfully!').waitFor();
      await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
      const newPhoto = uploaded[3];
      expect(patches[1]).toEqual({ status: 'sold_out', image_ids: [newPhoto, uploaded[2]], revision: 2 });
      await card.getByText('Sold out', { exact: true }).waitFor();
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'farmer-phone-sold-out');

      const productId = (await card.getAttribute('data-product-id'))!;
      const stored = (await api('GET', `/api/catalog/products/${productId}`, { token })).body;
      expect(stored).toMatchObject({ price: 2500, price_per_kg: 500, unit: 'heap', quantity: 12, status: 'sold_out', revision: 3 });
      expect(stored.image_ids).toEqual([newPhoto, uploaded[2]]);

      // Changed elsewhere while the page was open: the save is refused (409) and the page offers a reload.
      await card.getByRole('link', { name: `Edit ${name}` }).click();
      await expect.poll(() => edit.getByLabel('Quantity available (heaps)').inputValue()).toBe('12');
      const elsewhere = await api('PATCH', `/api/catalog/products/${productId}`, { token, json: { quantity: 20, revision: 3 } });
      expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(200);
      await edit.getByLabel('Quantity available (heaps)').fill('10');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Error updating product: This product was changed somewhere else. Reload it and try again.').waitFor();
      const offer = page.getByRole('alert').filter({ hasText: 'changed elsewhere (in another tab or on another device)' });
      await offer.waitFor();
      await screenshot(page, 'farmer-phone-edit-conflict');
      await offer.getByRole('button', { name: 'Reload product' }).click();
      await expect.poll(() => edit.getByLabel('Quantity available (heaps)').inputValue()).toBe('20');
      await offer.waitFor({ state: 'detached' });
      expect((await api('GET', `/api/catalog/products/${productId}`, { token })).body.quantity).toBe(20);

      expect((await api('DELETE', `/api/catalog/products/${productId}`, { token })).status).toBe(204);
      // The refused save's 409 is logged by the browser like any failed request.
      expect(unexpected(errors).filter((e) => !e.includes('status of 409 (Conflict)'))).toEqual([]);
    } catch (error) {
      await screenshot(page, 'farmer-phone-failure').catch(() => undefined);
      throw error;
    } finally {
      await phone.close();
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
      expect(uploads.length).toBe(4);
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
