// Issue 13, the farmer's product form on a patchy network, in headless Chromium against the real servers:
// what was typed (and the photos already uploaded) survives a reload; posting with the network cut says so
// in words and sends nothing; back online the same form posts, and the draft is gone. A big photo taken
// sideways (EXIF orientation 6) is made smaller in the browser before it is sent, and arrives upright at
// 1280 px; a small one is sent as it is. Then the farmer pages in Yoruba at 360 and 1280 px: no missing key,
// nothing wider than the screen.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually, photo } from '../support/api.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { accountWithProfile, postProduct } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

const OFFLINE_MESSAGE = 'You are offline. Posting needs the network — your product is kept here; post it when you are back online.';
const productName = `Offline yam ${Date.now().toString(36)}`;

let browser: Browser;
let dir: string;
let small: string;
let sideways: string;
let sidewaysBytes: number;
const accounts: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmer-offline-'));
  small = path.join(dir, 'small yam.jpg');
  fs.writeFileSync(small, await photo(800, 600, 40));
  // 3000 × 2000 pixels stored, shown 2000 × 3000 (a phone held upright: EXIF orientation 6).
  // Noise, so the file weighs what a real phone photo does (a few MB), well above what is sent untouched.
  const turned = await sharp(randomBytes(3000 * 2000 * 3), { raw: { width: 3000, height: 2000, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  sideways = path.join(dir, 'upright yam.jpg');
  fs.writeFileSync(sideways, turned);
  sidewaysBytes = turned.length;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(accounts.map((id) => deleteAccount(id).catch(() => undefined)));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function newFarmer(): Promise<TestAccount> {
  const farmer = await accountWithProfile({ role: 'farmer', businessName: 'Offline Farms', location: 'Ibadan', tuber: ['yam', 'cassava'] });
  accounts.push(farmer.id);
  // The catalog hears of the profile by event: a post with unknown photos is then refused for the photos (400).
  const probe = {
    product_name: 'probe',
    description: 'probe',
    price: 1,
    kg: 1,
    tuber_type: 'yam',
    image_ids: ['none-1', 'none-2'],
    cultural: 'probe',
  };
  await eventually(
    () => api('POST', '/api/catalog/products', { token: farmer.accessToken, json: probe }),
    (answer) => answer.status !== 409,
    20_000,
  );
  return farmer;
}

const toast = (page: Page, text: string): Locator =>
  page
    .getByRole('status')
    .filter({ hasText: text })
    .or(page.getByRole('alert').filter({ hasText: text }))
    .first();

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function myProducts(farmer: TestAccount): Promise<{ product_name: string }[]> {
  const answer = await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken });
  expect(answer.status).toBe(200);
  return answer.body.items;
}

describe('the product form on a patchy network (issue 13)', () => {
  it('keeps what was typed through a reload, refuses to post offline in words, and posts once back online', async () => {
    const farmer = await newFarmer();
    const context: BrowserContext = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    try {
      const page = await signInThroughShell(context, farmer, /\/dashboard\/farmer/);
      const errors = collectPageErrors(page);
      const uploads: Request[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/media/images') uploads.push(request);
      });
      /** The bytes a request sent (its body, or its Content-Length when the browser does not hand the body over). */
      const sentBytes = async (request: Request) => request.postDataBuffer()?.length || Number(await request.headerValue('content-length'));
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/catalog/products') posts.push(request.url());
      });

      await page.getByRole('heading', { name: 'Add Product' }).waitFor();
      let form = page.getByRole('form', { name: 'Add Product' });
      await form.getByLabel('Product Name').fill(productName);
      await form.getByLabel('Description').fill('Big white yam tubers, dug this week.');
      await form.getByLabel('Selling unit').selectOption('heap');
      await form.getByLabel('Price per heap (₦)').fill('2000');
      await form.getByLabel('Average weight per heap (kg)').fill('5');
      await form.getByLabel('Quantity available (heaps)').fill('12');
      await form.getByLabel('Cultural Values').fill('Shared at the New Yam festival.');
      await form.getByLabel('Tuber Type').selectOption('yam');

      // A small photo goes as it is; the big sideways one is made smaller first, and arrives upright.
      const fileInput = form.locator('input[type="file"]');
      await fileInput.setInputFiles([small, sideways]);
      await form.getByRole('img', { name: 'small yam.jpg' }).waitFor();
      await form.getByRole('img', { name: 'upright yam.jpg' }).waitFor();
      await expect.poll(() => form.getByRole('button', { name: 'Post Product' }).isEnabled()).toBe(true);
      expect(uploads).toHaveLength(2);
      const stored = await Promise.all(
        uploads.map(async (request) => ({ body: await sentBytes(request), image: await (await request.response())!.json() })),
      );
      const smallOne = stored.find((s) => s.image.width === 800)!;
      const bigOne = stored.find((s) => s.image.width !== 800)!;
      expect(smallOne.image).toMatchObject({ width: 800, height: 600 });
      expect(bigOne.image).toMatchObject({ width: 853, height: 1280 }); // upright, long edge 1280
      expect(bigOne.body).toBeLessThan(sidewaysBytes / 2);
      expect(smallOne.body).toBeGreaterThan(fs.statSync(small).size); // the file itself, in its multipart envelope

      // A reload (or a dropped connection) loses nothing: fields, choices and photos come back.
      await page.reload();
      await page.getByTestId('draft-restored').waitFor();
      form = page.getByRole('form', { name: 'Add Product' });
      expect(await form.getByLabel('Product Name').inputValue()).toBe(productName);
      expect(await form.getByLabel('Description').inputValue()).toBe('Big white yam tubers, dug this week.');
      expect(await form.getByLabel('Selling unit').inputValue()).toBe('heap');
      expect(await form.getByLabel('Price per heap (₦)').inputValue()).toBe('2000');
      expect(await form.getByLabel('Quantity available (heaps)').inputValue()).toBe('12');
      expect(await form.getByLabel('Tuber Type').inputValue()).toBe('yam');
      await form.getByTestId('price-per-kg').getByText('₦400.00 per kg').waitFor();
      await form.getByRole('img', { name: 'small yam.jpg' }).waitFor();
      await form.getByRole('img', { name: 'upright yam.jpg' }).waitFor();
      await form.getByTestId('photo-count').getByText('2 of 2–5 photos').waitFor();
      await screenshot(page, 'farmer-offline-draft-restored');

      // The network drops: posting says so plainly and sends nothing; the form keeps everything.
      await context.setOffline(true);
      await form.getByRole('button', { name: 'Post Product' }).click();
      await toast(page, OFFLINE_MESSAGE).waitFor();
      await screenshot(page, 'farmer-offline-draft-refused');
      expect(posts).toEqual([]);
      expect(await form.getByLabel('Product Name').inputValue()).toBe(productName);
      await context.setOffline(false);
      expect((await myProducts(farmer)).map((p) => p.product_name)).not.toContain(productName);

      // Back online the same form posts; the draft is gone.
      await form.getByRole('button', { name: 'Post Product' }).click();
      await toast(page, 'Product posted successfully!').waitFor();
      await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
      expect(posts).toHaveLength(1);
      expect((await myProducts(farmer)).map((p) => p.product_name)).toContain(productName);
      expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tuber.farmer.draft.')))).toEqual([]);

      // Editing keeps its draft too (per product and revision): a new price survives a reload; Start again drops it.
      await page.getByRole('link', { name: `Edit ${productName}` }).click();
      let edit = page.getByRole('form', { name: 'Edit Product' });
      await edit.getByLabel('Price per heap (₦)').fill('2600');
      await edit.getByTestId('price-per-kg').getByText('₦520.00 per kg').waitFor();
      await page.reload();
      await page.getByTestId('draft-restored').waitFor();
      edit = page.getByRole('form', { name: 'Edit Product' });
      expect(await edit.getByLabel('Price per heap (₦)').inputValue()).toBe('2600');
      await page.getByRole('button', { name: 'Start again' }).click();
      await expect.poll(() => edit.getByLabel('Price per heap (₦)').inputValue()).toBe('2000');
      expect(await page.getByTestId('draft-restored').count()).toBe(0);
      await page.reload();
      await page.getByRole('form', { name: 'Edit Product' }).getByLabel('Price per heap (₦)').waitFor();
      expect(await page.getByRole('form', { name: 'Edit Product' }).getByLabel('Price per heap (₦)').inputValue()).toBe('2000');
      expect(await page.getByTestId('draft-restored').count()).toBe(0);

      await page.goto(`${publicUrl}/dashboard/farmer`);
      form = page.getByRole('form', { name: 'Add Product' });
      await form.getByLabel('Product Name').waitFor();
      expect(await form.getByLabel('Product Name').inputValue()).toBe('');
      expect(await page.getByTestId('draft-restored').count()).toBe(0);
      // The farmer's section fits the phone (isMobile widens the layout viewport to the widest content, so this
      // measures the remote's own page rather than the window).
      expect(
        await page
          .locator('section')
          .filter({ has: form })
          .evaluate((el) => el.getBoundingClientRect().right),
      ).toBeLessThanOrEqual(360);
      expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED') && !e.includes('Failed to fetch'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the farmer pages in Yoruba (issue 13)', () => {
  it.each([
    { width: 360, height: 740, name: 'phone' },
    { width: 1280, height: 900, name: 'desktop' },
  ])('render every farmer page at $width px without a missing key or sideways scroll', async ({ width, height, name }) => {
    const farmer = await newFarmer();
    // A product per heap, so the list shows a card with the unit's words in Yoruba.
    await postProduct(farmer, { product_name: 'Iṣu funfun', price: 2000, unit: 'heap', unit_weight_kg: 5, quantity: 12 });
    const context = await browser.newContext({ viewport: { width, height } });
    try {
      await context.addInitScript(() => localStorage.setItem('tuber.locale', 'yo'));
      const page = await signInThroughShell(context, farmer, /\/dashboard\/farmer/);
      // The Add Product form in Yoruba (its heading and the button).
      await page.getByRole('heading', { name: 'Fi ọjà sílẹ̀' }).waitFor();
      await page.getByRole('button', { name: 'Fi ọjà sílẹ̀' }).waitFor();
      await page.getByLabel('Irú ohun oníṣu').locator('option', { hasText: 'iṣu' }).waitFor({ state: 'attached' });
      await page.getByLabel('Ìwọ̀n títà').selectOption('heap');
      await page.getByText('Iye owó fún òkìtì kan (₦)').waitFor();
      await screenshot(page, `farmer-yo-${name}-add-product`);
      expect(await noSidewaysScroll(page)).toBe(true);
      const pages = [
        { path: '/dashboard/productLists', heading: 'Gbogbo ọjà rẹ', shot: 'product-list' },
        { path: '/dashboard/inbox', heading: 'Àwọn ìbéèrè', shot: 'inbox' },
        { path: '/dashboard/insights', heading: 'Àkíyèsí ọjà', shot: 'insights' },
        { path: '/dashboard/farmerprofile', heading: 'Offline Farms', shot: 'profile' },
      ];
      for (const shown of pages) {
        await page.goto(`${publicUrl}${shown.path}`);
        await page.getByRole('heading', { name: shown.heading, level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        if (shown.shot === 'product-list') {
          const card = page.getByRole('article', { name: 'Iṣu funfun' });
          await card.getByText('₦2,000.00 fún òkìtì kan').waitFor();
          await card.getByText('òkìtì 12', { exact: true }).waitFor();
          await card.getByText('Ó wà', { exact: true }).waitFor();
          await card.getByText('iṣu', { exact: true }).waitFor();
        }
        await screenshot(page, `farmer-yo-${name}-${shown.shot}`);
        expect(await noSidewaysScroll(page), shown.path).toBe(true);
      }
      await page.getByText('Àwọn ohun oníṣu tí o ń gbìn').waitFor();
      const missing = await page.evaluate(() =>
        [...((globalThis as { __tuberMissingKeys?: Set<string> }).__tuberMissingKeys ?? [])].filter((key) => key.startsWith('farmer:')),
      );
      expect(missing).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
