// Reviews from real sales (issue 26), in headless Chromium against the real servers. A buyer whose request the
// farmer fulfilled rates it on My requests at 360 px (stars and a text); the farmer's card in the feed then shows
// the rating ("★ 4.0 (3)" after three reviews, "New on Tuber Market" before), and the product page shows the
// farmer's figures and reviews, also at 1280 px in Yoruba. Screenshots test-artifacts/reviews-*.png.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import buyerEn from '../../frontends/buyer/src/i18n/en.json' with { type: 'json' };
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api } from '../support/api.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { waitForCatalogues } from './support/catalogues.js';
import { accountWithProfile, lagosDay, ordersKnowProduct, postProduct } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

let BUSINESS = '';
let NAME = '';

let browser: Browser;
let farmer: TestAccount;
let buyer: TestAccount;
let productId: string;
const contexts: BrowserContext[] = [];

async function sale(until: 'sent' | 'fulfilled'): Promise<{ id: string; number: string }> {
  const request_id = randomUUID();
  const sent = await api('POST', '/api/orders/requests', {
    token: buyer.accessToken,
    json: {
      request_id,
      farmer_id: farmer.id,
      lines: [{ product_id: productId, quantity: 1, price: 1200, unit: 'kg' }],
      fulfilment: 'pickup',
      preferred_date: lagosDay(1),
      phone: '0803 123 4567',
    },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  if (until === 'fulfilled') {
    for (const action of ['accept', 'fulfil'])
      expect((await api('POST', `/api/orders/requests/${request_id}/${action}`, { token: farmer.accessToken, json: {} })).status).toBe(200);
  }
  return { id: request_id, number: sent.body.number };
}

const accounts: TestAccount[] = [];

/** A farmer of their own and a product for each try of the test (a retry must not find the last try's reviews). */
async function freshFarmer() {
  const run = Math.random().toString(36).slice(2, 7);
  BUSINESS = `Review Farms ${run}`;
  NAME = `Rated yam ${run}`;
  farmer = await accountWithProfile({ role: 'farmer', businessName: BUSINESS, location: 'Oyo', tuber: ['yam'] });
  accounts.push(farmer);
  productId = (await postProduct(farmer, { product_name: NAME, price: 1200, unit: 'kg', quantity: 500 })).product_id;
  await ordersKnowProduct(buyer.accessToken, { farmerId: farmer.id, productId, price: 1200, unit: 'kg' });
}

beforeAll(async () => {
  buyer = await accountWithProfile({ role: 'buyer' });
  accounts.push(buyer);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all(accounts.map((account) => deleteAccount(account.id).catch(() => undefined)));
});

async function page(width: number, locale = 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 900 } });
  contexts.push(context);
  await context.addInitScript((chosen) => localStorage.setItem('tuber.locale', chosen), locale);
  return signInThroughShell(context, buyer);
}

const card = (p: Page) => p.locator(`[data-testid="product-card"][data-product-id="${productId}"]`);

describe('a review after a fulfilled request', () => {
  it('is written on My requests at 360 px, and the rating reaches the card and the product page', async () => {
    await freshFarmer();
    // Two sales rated before (5 and 4 stars), a third to rate in the browser, and two open requests: 5 in all.
    const rated = [await sale('fulfilled'), await sale('fulfilled')];
    for (const [i, stars] of [5, 4].entries())
      expect((await api('PUT', `/api/orders/requests/${rated[i]!.id}/review`, { token: buyer.accessToken, json: { stars } })).status).toBe(201);
    const third = await sale('fulfilled');
    await sale('sent');
    await sale('sent');

    const phone = await page(360);
    const errors = collectPageErrors(phone);
    // Before the third review: two reviews, so the card says the farmer is new.
    await phone.goto(`${publicUrl}/dashboard/buyer?q=${encodeURIComponent(NAME)}`);
    await expect.poll(() => card(phone).getByTestId('farmer-rating').textContent(), { timeout: 20_000 }).toBe(buyerEn['trust.new']);

    await phone.goto(`${publicUrl}/dashboard/requests`);
    const request = phone.locator(`[data-testid="request"][data-request-id="${third.id}"]`);
    await request.getByRole('button', { expanded: false }).first().click();
    await request.getByTestId('rate-request').click();
    await request.locator('label').filter({ hasText: '3 stars' }).click();
    await request.getByLabel(buyerEn['review.text']).fill('Good yams, but the pickup took long.');
    await screenshot(phone, 'reviews-form-en-360');
    await request.getByRole('button', { name: buyerEn['review.save'] }).click();
    await request.getByTestId('my-review').waitFor();
    expect(await request.getByTestId('my-review').textContent()).toContain('Good yams, but the pickup took long.');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(phone, 'reviews-saved-en-360');

    // (5 + 4 + 3) / 3 = 4.0, on the card once the catalog has the farmer's new rating.
    await expect
      .poll(
        async () => {
          await phone.goto(`${publicUrl}/dashboard/buyer?q=${encodeURIComponent(NAME)}`);
          return card(phone).getByTestId('farmer-rating').getAttribute('data-rating', { timeout: 10_000 });
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toBe('4');
    expect(await card(phone).getByTestId('farmer-rating').textContent()).toMatch(/★\s*4\.0\s*\(3\)/);
    await screenshot(phone, 'reviews-card-en-360');

    await card(phone).getByRole('link', { name: NAME, exact: true }).click();
    const trust = phone.getByTestId('farmer-trust');
    await trust.getByTestId('review').first().waitFor();
    expect(await trust.getByTestId('review').count()).toBe(3);
    expect(await trust.getByTestId('farmer-figures').textContent()).toContain('Fulfilled 3 of 3 accepted requests');
    await trust.scrollIntoViewIfNeeded();
    await screenshot(phone, 'reviews-product-en-360');

    // The farmer page: the farm, its products and its reviews.
    await phone.getByTestId('farm-link').click();
    const farm = phone.getByTestId('farmer-page');
    await farm.getByRole('heading', { level: 1, name: BUSINESS }).waitFor();
    expect(await farm.getByTestId('farm-tubers').textContent()).toBe('Grows: yam');
    expect(await farm.getByTestId('farm-since').textContent()).toMatch(/^On Tuber Market since /);
    await farm.locator(`[data-testid="product-card"][data-product-id="${productId}"]`).waitFor();
    await farm.getByTestId('farmer-trust').getByTestId('review').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(phone, 'reviews-farm-en-360');
    expect(errors).toEqual([]);
  }, 180_000);

  it('shows the figures and reviews on the product page at 1280 px in Yoruba', async () => {
    const wide = await page(1280, 'yo');
    await wide.goto(`${publicUrl}/dashboard/buyer/${productId}`);
    await waitForCatalogues(wide, 'yo', ['buyer']);
    const trust = wide.getByTestId('farmer-trust');
    await trust.getByTestId('review').first().waitFor();
    expect(await trust.locator('h2').textContent()).toBe(`Nípa ${BUSINESS}`);
    expect(await wide.getByTestId('product-detail').getByTestId('farmer-rating').first().getAttribute('data-rating')).toBe('4');
    await trust.scrollIntoViewIfNeeded();
    await screenshot(wide, 'reviews-product-yo-1280');
    await wide.getByTestId('farm-link').click();
    await wide.getByTestId('farmer-page').getByRole('heading', { level: 1, name: BUSINESS }).waitFor();
    expect(await wide.getByTestId('farm-since').textContent()).toMatch(/^Ó ti wà lórí Tuber Market láti /);
    await screenshot(wide, 'reviews-farm-yo-1280');
  }, 120_000);
});
