// The price guide in the signed-in front ends (issue 27), in headless Chromium against the real servers. A market
// of its own is made through the API first: three farmers at a place nobody else farms, each with a yam listing
// (₦1,000, ₦1,200 and ₦1,400 per kg), and six sales accepted from three buyers this week, so the place's band is
// known exactly (₦1,050–1,350 per kg, 6 sales). Then, at 360 px: the farmer's price field on Add Product says what
// yam sold for (per kg, then per heap once its weight is typed), a gentle note for a price far above, and the
// product still posts (en); the same on Edit Product in Yoruba with a price far below; the buyer's card and product
// page show "Above this week's price" for a dear yam, with the city's range behind a tap or a key (en, yo), from ONE
// request for all the feed's cards; and a failed price request leaves the page whole, without a marker.
// Screenshots test-artifacts/price-field-{en,yo}-360.png and price-marker-{en,yo}-360.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { IntlMessageFormat } from 'intl-messageformat';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import uiEn from '../../frontends/ui/src/i18n/en.json' with { type: 'json' };
import uiYo from '../../frontends/ui/src/i18n/yo.json' with { type: 'json' };
import farmerYo from '../../frontends/farmer/src/i18n/yo.json' with { type: 'json' };
import buyerYo from '../../frontends/buyer/src/i18n/yo.json' with { type: 'json' };
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually, photo } from '../support/api.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { accountWithProfile, lagosDay, ordersKnowProduct, postProduct } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

const run = Math.random().toString(36).slice(2, 7);
/** A place of this run only: its figures are this run's sales and nobody else's. */
const PLACE = `Guidetown ${run}`;
const PLACE_PRICES = [1000, 1200, 1400];
/** Six sales, two per farmer, from three buyers: [farmer, buyer]. */
const SALES: [number, number][] = [
  [0, 0],
  [0, 1],
  [1, 1],
  [1, 2],
  [2, 2],
  [2, 0],
];
const DEAR_NAME = `Guidemark dear yam ${run}`;

interface Band {
  count: number;
  p25: number;
  p50: number;
  p75: number;
}
interface PriceNow {
  tuber: string;
  scope: 'location' | 'city';
  period: 'this_week' | 'last_week' | null;
  sold: Band | null;
  asked: Band | null;
}

let browser: Browser;
const farmers: TestAccount[] = [];
const buyers: TestAccount[] = [];
const contexts: BrowserContext[] = [];
let dearProductId = '';
let photoDir = '';
let photoFiles: string[] = [];

/** A request from the buyer for one kg of the farmer's product, accepted by the farmer. */
async function acceptedSale(farmer: TestAccount, buyer: TestAccount, productId: string, price: number): Promise<void> {
  const request_id = randomUUID();
  const sent = await api('POST', '/api/orders/requests', {
    token: buyer.accessToken,
    json: {
      request_id,
      farmer_id: farmer.id,
      lines: [{ product_id: productId, quantity: 1, price, unit: 'kg' }],
      fulfilment: 'pickup',
      preferred_date: lagosDay(1),
      phone: '0803 123 4567',
    },
  });
  if (sent.status !== 201) throw new Error(`sending the request answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const accepted = await api('POST', `/api/orders/requests/${request_id}/accept`, { token: farmer.accessToken, json: {} });
  if (accepted.status !== 200) throw new Error(`accepting the request answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
}

const priceNow = async (query = ''): Promise<PriceNow> => {
  const answer = await api('GET', `/api/catalog/prices/yam/now${query}`);
  if (answer.status !== 200)
    throw new Error(`GET /api/catalog/prices/yam/now${query} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as PriceNow;
};

beforeAll(async () => {
  browser = await launchBrowser();
  photoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'price-hints-'));
  photoFiles = [];
  for (const [i, hue] of [40, 160].entries()) {
    const file = path.join(photoDir, `yam ${i + 1}.jpg`);
    fs.writeFileSync(file, await photo(800, 600, hue));
    photoFiles.push(file);
  }

  for (let i = 0; i < 3; i++) {
    buyers.push(await accountWithProfile({ role: 'buyer' }));
    farmers.push(await accountWithProfile({ role: 'farmer', businessName: `Guide Farm ${i + 1} ${run}`, location: PLACE, tuber: ['yam'] }));
  }
  const products: string[] = [];
  for (const [i, farmer] of farmers.entries()) {
    const price = PLACE_PRICES[i]!;
    const { product_id } = await postProduct(farmer, { product_name: `Guide yam ${i + 1} ${run}`, price, unit: 'kg', quantity: 100 });
    products.push(product_id);
    await ordersKnowProduct(buyers[0]!.accessToken, { farmerId: farmer.id, productId: product_id, price, unit: 'kg' });
  }
  for (const [f, b] of SALES) await acceptedSale(farmers[f]!, buyers[b]!, products[f]!, PLACE_PRICES[f]!);

  // The catalog hears of the sales by event: the place's own figures once all six are in.
  const local = await eventually(
    () => priceNow(`?location=${encodeURIComponent(PLACE)}`),
    (now) => now.scope === 'location' && now.sold?.count === SALES.length,
    45_000,
  );
  expect(local).toMatchObject({ scope: 'location', period: 'this_week', sold: { count: 6, p25: 1050, p50: 1200, p75: 1350 } });

  // A yam far dearer than what yam sold for in the city this week: its marker says "Above".
  const city = await priceNow();
  expect(city.sold, 'the city has yam figures this week (at least this run’s)').not.toBeNull();
  const dear = Math.max(5000, Math.ceil(city.sold!.p75 * 3));
  dearProductId = (await postProduct(farmers[1]!, { product_name: DEAR_NAME, price: dear, unit: 'kg', quantity: 40 })).product_id;
}, 240_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all([...farmers, ...buyers].map((account) => deleteAccount(account.id).catch(() => undefined)));
  if (photoDir) fs.rmSync(photoDir, { recursive: true, force: true });
});

async function phone(account: TestAccount, locale: 'en' | 'yo'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  contexts.push(context);
  await context.addInitScript((chosen) => localStorage.setItem('tuber.locale', chosen), locale);
  return signInThroughShell(context, account);
}

/** Nothing wider than the screen. */
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The boxes of an element's visible children never overlap (each starts below or beside the last). */
async function noOverlap(container: Locator): Promise<string[]> {
  return container.evaluate((element) => {
    const boxes = [...element.children]
      .map((child) => ({ name: child.getAttribute('data-testid') ?? child.className, box: child.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const overlaps: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const apart =
          a.box.bottom <= b.box.top + 0.5 ||
          b.box.bottom <= a.box.top + 0.5 ||
          a.box.right <= b.box.left + 0.5 ||
          b.box.right <= a.box.left + 0.5;
        if (!apart) overlaps.push(`${a.name} overlaps ${b.name}`);
      }),
    );
    return overlaps;
  });
}

/** The price guide's requests of this page view, in order (the resource timing: answers from the HTTP cache too). */
const priceRequests = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((pathname) => pathname.startsWith('/api/catalog/prices')),
  );

/** Keys a page asked for that its language lacks. */
const missingKeys = (page: Page) =>
  page.evaluate(() => [...((globalThis as { __tuberMissingKeys?: Set<string> }).__tuberMissingKeys ?? [])]);

const format = (message: string, locale: string, values: Record<string, string | number>) =>
  String(new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).format(values));

const rangeOf = (band: Band, kg = 1) =>
  `₦${Math.round(band.p25 * kg).toLocaleString('en-NG')}–${Math.round(band.p75 * kg).toLocaleString('en-NG')}`;

describe('the farmer’s price field', () => {
  it('says what yam sold for this week around the farm (per kg, then per heap), notes a price far above, and still posts (en, 360 px)', async () => {
    const farmer = farmers[0]!;
    const page = await phone(farmer, 'en');
    const errors = collectPageErrors(page);
    if (new URL(page.url()).pathname !== '/dashboard/farmer') await page.goto(`${publicUrl}/dashboard/farmer`);
    await page.getByRole('heading', { name: 'Add Product' }).waitFor();
    const form = page.getByRole('form', { name: 'Add Product' });
    const line = form.getByTestId('price-hint-line');
    const note = form.getByTestId('price-hint-note');

    // Before a tuber is chosen: where to choose it.
    await form.getByText('Choose the tuber type below to see what it sold for this week.').waitFor();
    await form.getByLabel('Tuber Type').selectOption('yam');
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toBe('This week yam sold for ₦1,050–1,350 per kg (6 sales)');
    expect(await form.getByTestId('price-hint').getAttribute('data-scope')).toBe('location');
    // Whose figures they are, and the place's price page in a new tab (the form keeps what was typed).
    expect(await form.getByTestId('price-guide-whose').textContent()).toBe(
      `Figures for ${PLACE}. See yam prices week by week (opens in a new tab)`,
    );
    const link = form.getByTestId('price-guide-link');
    expect(await link.getAttribute('href')).toBe(`/prices/yam?location=${encodeURIComponent(PLACE)}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.getByRole('heading', { level: 1, name: 'yam' }).waitFor({ timeout: 20_000 });
    expect(new URL(tab.url()).searchParams.get('location')).toBe(PLACE);
    await expect.poll(() => tab.locator('[data-kind="sold"]').textContent(), { timeout: 20_000 }).toContain('6 sales');
    await tab.close();
    // Read out with the price field.
    const price = form.getByLabel('Price per kg (₦)');
    const describedBy = (await price.getAttribute('aria-describedby')) ?? '';
    expect(await form.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toContain('This week yam sold for');

    // Far above (over 130 % of the upper quartile): a gentle note, no error.
    await price.fill('5000');
    await expect.poll(() => note.textContent()).toBe('This is well above what yam sold for this week.');
    expect(await price.getAttribute('aria-invalid')).toBeNull();
    await price.fill('1300');
    await expect.poll(() => note.textContent()).toBe('');

    // Per heap of 5 kg: the range in the unit once its weight is known.
    await form.getByLabel('Selling unit').selectOption({ label: 'per heap' });
    await expect.poll(() => line.textContent()).toBe('This week yam sold for ₦1,050–1,350 per kg (6 sales)');
    await form.getByLabel('Average weight per heap (kg)').fill('5');
    await expect.poll(() => line.textContent()).toBe('This week yam sold for ₦5,250–6,750 per heap (6 sales)');
    await form.getByLabel('Price per heap (₦)').fill('25000');
    await expect.poll(() => note.textContent()).toBe('This is well above what yam sold for this week.');

    expect(await fitsTheScreen(page)).toBe(true);
    expect(await noOverlap(form.locator('fieldset').first())).toEqual([]);
    await form.getByLabel('Price per heap (₦)').scrollIntoViewIfNeeded();
    await screenshot(page, 'price-field-en-360');

    // It never blocks saving.
    await form.getByLabel('Product Name').fill(`Guide heap ${run}`);
    await form.getByLabel('Description').fill('Big tubers in heaps of five kilos, dug this week.');
    await form.getByLabel('Quantity available (heaps)').fill('10');
    await form.getByLabel('Cultural Values').fill('Shared at the New Yam festival.');
    const fileInput = form.locator('input[type="file"]');
    for (const file of photoFiles) {
      await fileInput.setInputFiles(file);
      await expect.poll(() => form.getByTestId('photo-count').textContent()).toContain(`${photoFiles.indexOf(file) + 1} of 2–5 photos`);
    }
    await expect.poll(() => form.getByRole('button', { name: 'Post Product' }).isEnabled(), { timeout: 20_000 }).toBe(true);
    await form.getByRole('button', { name: 'Post Product' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/productLists', { timeout: 20_000 });
    await page.getByRole('article', { name: `Guide heap ${run}` }).waitFor();
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });

  it('says it in Yoruba on Edit Product, with the note for a price far below (yo, 360 px)', async () => {
    const farmer = farmers[0]!;
    const mine = await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken });
    const heap = (mine.body.items as { product_id: string; product_name: string }[]).find((p) => p.product_name === `Guide heap ${run}`);
    expect(heap, 'the heap posted in English').toBeDefined();
    const page = await phone(farmer, 'yo');
    const errors = collectPageErrors(page);
    await page.goto(`${publicUrl}/dashboard/productLists/${heap!.product_id}/edit`);
    const form = page.locator('form').filter({ has: page.locator('input[name="price"]') });
    const line = form.getByTestId('price-hint-line');
    const note = form.getByTestId('price-hint-note');
    const values = { period: 'this_week', tuber: farmerYo['tuber.yam'], unit: farmerYo['unit.per.heap'], count: 6, range: '₦5,250–6,750' };
    const expected = format(uiYo['guide.sold'], 'yo', values);
    expect(expected).toBe('Ní ọ̀sẹ̀ yìí, iṣu tà ní ₦5,250–6,750 fún òkìtì kan (títà 6)');
    await expect.poll(() => line.textContent(), { timeout: 20_000 }).toBe(expected);

    // ₦1,000 a heap of 5 kg is ₦200 a kg: far under 70 % of the lower quartile.
    const price = form.locator('input[name="price"]');
    await price.fill('1000');
    await expect
      .poll(() => note.textContent())
      .toBe(format(uiYo['guide.far_low_sold'], 'yo', { tuber: farmerYo['tuber.yam'], period: 'this_week' }));
    expect(await note.getAttribute('data-far')).toBe('low');

    expect(await fitsTheScreen(page)).toBe(true);
    expect(await noOverlap(form.locator('fieldset').first())).toEqual([]);
    expect((await missingKeys(page)).filter((key) => key.includes(':yo:'))).toEqual([]);
    await price.scrollIntoViewIfNeeded();
    await screenshot(page, 'price-field-yo-360');
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });
});

describe('the buyer’s price marker', () => {
  it('shows "Above this week’s price" on the card and the product page, the range behind a tap or a key, from one request (en, 360 px)', async () => {
    const page = await phone(buyers[0]!, 'en');
    const errors = collectPageErrors(page);
    // A fresh page view (a full load, as the first-load prefetch happens).
    await page.goto(`${publicUrl}/dashboard/buyer?q=${encodeURIComponent(DEAR_NAME)}`);
    const card = page.locator(`[data-testid="product-card"][data-product-id="${dearProductId}"]`);
    await card.waitFor({ timeout: 20_000 });
    const marker = card.getByTestId('price-marker');
    await marker.waitFor({ timeout: 15_000 });
    expect(await marker.getAttribute('data-position')).toBe('above');
    const toggle = marker.getByRole('button', { name: 'Above this week’s price' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const range = marker.getByTestId('price-marker-range');
    expect(await range.isVisible()).toBe(false);
    expect((await toggle.boundingBox())!.height).toBeGreaterThanOrEqual(44);

    // A tap shows the city's range (as the API says it now; other runs may be selling yam too).
    await toggle.tap();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await range.waitFor();
    const city = await priceNow();
    expect(await range.textContent()).toMatch(/^This week yam sold for ₦[\d,]+–[\d,]+ per kg \(\d+ sales\)$/);
    const shown = (await range.textContent()) ?? '';
    const said = format(uiEn['guide.sold'], 'en', {
      period: 'this_week',
      tuber: 'yam',
      unit: 'per kg',
      count: city.sold!.count,
      range: rangeOf(city.sold!),
    });
    if (shown !== said) console.warn(`the city's yam figures moved while the page was open: page "${shown}", API now "${said}"`);
    expect(await range.getAttribute('id')).toBe(await toggle.getAttribute('aria-controls'));
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await noOverlap(marker.locator('xpath=..'))).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'price-marker-en-360');
    // Every card's figures came in ONE request of this page view; no card asked for its own.
    expect(await priceRequests(page)).toEqual(['/api/catalog/prices/now']);

    // The product page: the same marker, opened and closed by keyboard.
    await card.getByRole('link', { name: DEAR_NAME, exact: true }).click();
    const detail = page.getByTestId('product-detail');
    const detailMarker = detail.getByTestId('price-marker');
    await detailMarker.waitFor({ timeout: 15_000 });
    expect(await detailMarker.getAttribute('data-position')).toBe('above');
    const detailToggle = detailMarker.getByRole('button', { name: 'Above this week’s price' });
    await detailToggle.focus();
    await page.keyboard.press('Enter');
    expect(await detailToggle.getAttribute('aria-expanded')).toBe('true');
    expect(await detailMarker.getByTestId('price-marker-range').textContent()).toMatch(
      /^This week yam sold for ₦[\d,]+–[\d,]+ per kg \(\d+ sales\)$/,
    );
    await page.keyboard.press('Space');
    expect(await detailToggle.getAttribute('aria-expanded')).toBe('false');
    expect(await detailMarker.getByTestId('price-marker-range').isVisible()).toBe(false);
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await priceRequests(page)).toEqual(['/api/catalog/prices/now', '/api/catalog/prices/yam/now']);
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });

  it('says it in Yoruba on the product page (yo, 360 px), and a failed price request leaves the page whole without a marker', async () => {
    const page = await phone(buyers[1]!, 'yo');
    const errors = collectPageErrors(page);
    await page.goto(`${publicUrl}/dashboard/buyer/${dearProductId}`);
    const detail = page.getByTestId('product-detail');
    const marker = detail.getByTestId('price-marker');
    await marker.waitFor({ timeout: 20_000 });
    const label = format(uiYo['guide.above'], 'yo', { period: 'this_week' });
    expect(label).toBe('Ó ju iye owó ọ̀sẹ̀ yìí lọ');
    const toggle = marker.getByRole('button', { name: label });
    await expect.poll(() => toggle.count(), { timeout: 20_000 }).toBe(1);
    await toggle.tap();
    const range = marker.getByTestId('price-marker-range');
    await range.waitFor();
    const start = format(uiYo['guide.sold'], 'yo', {
      period: 'this_week',
      tuber: buyerYo['tuber.yam'],
      unit: buyerYo['unit.per.kg'],
      count: 9,
      range: 'RANGE',
    }).split('RANGE')[0]!;
    expect(start).toBe('Ní ọ̀sẹ̀ yìí, iṣu tà ní ');
    expect(await range.textContent()).toMatch(new RegExp(`^${start}₦[\\d,]+–[\\d,]+ fún kg kan \\(títà \\d+\\)$`));
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await noOverlap(marker.locator('xpath=..'))).toEqual([]);
    expect((await missingKeys(page)).filter((key) => key.includes(':yo:'))).toEqual([]);
    await marker.scrollIntoViewIfNeeded();
    await screenshot(page, 'price-marker-yo-360');
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);

    // The price guide down: the product page and the feed as before, no marker.
    await page.route('**/api/catalog/prices/**', (route) => route.abort());
    await page.goto(`${publicUrl}/dashboard/buyer/${dearProductId}`);
    await detail.getByTestId('product-price').waitFor({ timeout: 20_000 });
    await page.goto(`${publicUrl}/dashboard/buyer?q=${encodeURIComponent(DEAR_NAME)}`);
    const card = page.locator(`[data-testid="product-card"][data-product-id="${dearProductId}"]`);
    await card.waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1_000);
    expect(await page.getByTestId('price-marker').count()).toBe(0);
    expect(errors.filter((e) => !e.includes('favicon') && !e.includes('net::ERR_FAILED'))).toEqual([]);
  });
});
