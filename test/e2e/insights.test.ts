// Farmer insights in headless Chromium (issue 12, ADR 0034): a buyer signs in, opens a farmer's product
// and clicks the phone link in Contact Farmer; the farmer signs in, opens Insights and sees that view
// and that contact click, in the totals, the chart's numbers and the product's row. The farmer's own
// view of the product counts nothing. On a 1280 px desktop and a 360 px phone (no sideways scroll).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { api, eventually, imageForm, photo } from '../support/api.js';
import { signInWithPassword } from '../support/keycloak.js';
import { backInApp, requireIdentityStack, submitKeycloakLogin } from './support/identity.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { lagosDay } from './support/market.js';

const run = Math.random().toString(36).slice(2, 7);
const productName = `Insight yam ${run}`;
const quietName = `Quiet cassava ${run}`;

let browser: Browser;
const contexts: BrowserContext[] = [];
const accounts: string[] = [];
let farmer: { id: string; email: string; password: string };
let buyer: { id: string; email: string; password: string };
let productId: string;
/** The farmer's signed-in browser context (first test). */
let farmerContext: BrowserContext;

async function postProduct(token: string, name: string, tuber_type: string): Promise<string> {
  const image_ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const answer = await api('POST', '/api/media/images', {
      token,
      form: imageForm(await photo(480, 360, 40 + i * 90), `insights ${run} ${i}.jpg`),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    image_ids.push(answer.body.image_id);
  }
  const body = {
    product_name: name,
    description: 'Firm tubers dug this week on our farm near the river, washed and packed for buyers.',
    price: 2400,
    quantity: 20,
    tuber_type,
    image_ids,
    cultural: 'Shared at the New Yam festival.',
  };
  // The catalog learns of the farmer's profile by event: a 409 naming it means "not yet".
  const posted = await eventually(
    () => api('POST', '/api/catalog/products', { token, json: body }),
    (a) => a.status !== 409,
    20_000,
  );
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  return posted.body.product_id;
}

/** A browser context signed in through the shell's /login and Keycloak's form. */
async function signedInContext(account: { email: string; password: string }, landing: RegExp): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${publicUrl}/login`);
  await submitKeycloakLogin(page, account.email, account.password);
  await backInApp(page, landing);
  await page.close();
  return context;
}

/** Notes tel:/mailto: links the page would open, and stops the system handing them to an app (headless has none). */
async function catchContactLinks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const opened: string[] = ((window as unknown as { opened: string[] }).opened = []);
    document.addEventListener('click', (event) => {
      const link = (event.target as Element).closest('a');
      if (link && /^(tel|mailto):/.test(link.href)) {
        opened.push(link.href);
        event.preventDefault();
      }
    });
  });
}

const activityPosted = (page: Page, kind: string) =>
  page.waitForResponse((response) => response.url().endsWith('/api/orders/activity') && response.request().postDataJSON()?.kind === kind, {
    timeout: 15_000,
  });

beforeAll(async () => {
  await requireIdentityStack();
  farmer = await createAccount({ role: 'farmer', businessName: `Insight Farms ${run}`, location: 'Ibadan', tuber: ['yam', 'cassava'] });
  accounts.push(farmer.id);
  buyer = await createAccount({ role: 'buyer' });
  accounts.push(buyer.id);
  const { accessToken } = await signInWithPassword(farmer.email, farmer.password);
  expect((await api('POST', '/api/profile/me', { token: accessToken })).status).toBe(201);
  productId = await postProduct(accessToken, productName, 'yam');
  await postProduct(accessToken, quietName, 'cassava');
  // The orders service learns of products by event: wait until the farmer's insights list both.
  const known = await eventually(
    () => api('GET', '/api/orders/insights', { token: accessToken }),
    (a) => a.status === 200 && a.body.products.length === 2,
    20_000,
  );
  expect(known.body.products?.length, JSON.stringify(known.body)).toBe(2);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all(accounts.map((id) => deleteAccount(id).catch(() => undefined)));
});

describe('farmer insights', () => {
  it("shows the buyer's view and phone click on the farmer's Insights page, and not the farmer's own view", async () => {
    // The buyer: opens the product (a view), then Contact Farmer → the phone link (a contact click).
    const buyerContext = await signedInContext(buyer, /^\/dashboard\/buyer/);
    const buyerPage = await buyerContext.newPage();
    const buyerErrors = collectPageErrors(buyerPage);
    // The counts go to the Lagos day they happen on: a run that crosses midnight there (23:00 UTC) finds
    // them on yesterday's bar, or split over the last two.
    const dayOfActivity = lagosDay(0);
    const viewed = activityPosted(buyerPage, 'view');
    await buyerPage.goto(`${publicUrl}/dashboard/buyer/${productId}`);
    await buyerPage.getByRole('heading', { name: productName }).waitFor();
    expect((await viewed).status()).toBe(204);
    await buyerPage.getByRole('button', { name: 'Contact Farmer' }).click();
    const dialog = buyerPage.getByRole('dialog');
    await catchContactLinks(buyerPage);
    const called = activityPosted(buyerPage, 'contact_phone');
    await dialog.locator('a[href^="tel:"]').click();
    expect((await called).status()).toBe(204);
    expect(buyerErrors).toEqual([]);

    // The farmer: their own look at the product (the shell keeps farmers out of the buyer pages, so it
    // is reported as the buyer remote would) counts nothing; then Insights.
    const { accessToken: farmerToken } = await signInWithPassword(farmer.email, farmer.password);
    const own = await api('POST', '/api/orders/activity', { token: farmerToken, json: { product_id: productId, kind: 'view' } });
    expect(own.status).toBe(204);
    farmerContext = await signedInContext(farmer, /^\/dashboard\//);
    const page = await farmerContext.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${publicUrl}/dashboard/insights`);
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    const totals = page.getByRole('list', { name: 'Totals, last 7 days' });
    await totals.waitFor();
    const total = (key: string) => totals.locator(`[data-total="${key}"]`);
    expect(await total('views').textContent()).toContain('Views1');
    expect(await total('contacts').textContent()).toContain('Contact clicks1');
    expect(await total('contacts').textContent()).toContain('Phone 1 · E-mail 0 · WhatsApp 0');
    expect(await total('carts').textContent()).toContain('Cart adds0');

    // The product's row: 1 view, 1 phone; the quiet product is listed with zeros.
    const row = page.getByRole('row', { name: new RegExp(productName) });
    const cell = (key: string) => row.locator(`[data-count="${key}"]`);
    expect(await cell('view').textContent()).toBe('1');
    expect(await cell('contact_phone').textContent()).toBe('1');
    expect(await cell('contact_email').textContent()).toBe('0');
    expect(await cell('cart_add').textContent()).toBe('0');
    await page.getByRole('row', { name: new RegExp(quietName) }).waitFor();

    // The chart: an image with a title, 7 days, today's bar holding both; its numbers as a table.
    const chart = page.getByRole('img', { name: /Activity per day, last 7 days/ });
    await chart.waitFor();
    expect(await chart.locator('g[data-day]').count()).toBe(7);
    const barTotals = (await chart.locator('g[data-day]').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('data-total')))).map(
      Number,
    );
    expect(barTotals.reduce((sum, n) => sum + n, 0)).toBe(2);
    await page.getByText('Show the numbers by day').click();
    const todayRow = page.getByRole('table', { name: 'Activity per day, last 7 days' }).getByRole('row').last();
    if (lagosDay(0) === dayOfActivity) {
      expect(barTotals.at(-1)).toBe(2);
      expect(await todayRow.getByRole('cell').allTextContents()).toEqual(['1', '1', '0', '0']);
    }
    await screenshot(page, 'farmer-insights-desktop');

    // 30 days: the address says so, the chart has 30 bars, the counts are the same.
    await page.getByRole('button', { name: '30 days' }).click();
    await page.waitForURL((url) => url.search === '?days=30');
    await page.getByRole('list', { name: 'Totals, last 30 days' }).waitFor();
    await expect.poll(() => page.locator('g[data-day]').count()).toBe(30);
    expect(await page.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(await cell('view').textContent()).toBe('1');

    // A phone: nothing scrolls sideways; each product is a card with its figures named.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await page.getByRole('list', { name: 'Totals, last 30 days' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'farmer-insights-phone');
    expect(errors).toEqual([]);
  });

  it('says "No activity yet" to a farmer whose products nobody has looked at', async () => {
    const quiet = await createAccount({ role: 'farmer', businessName: `Quiet Farms ${run}`, location: 'Oyo', tuber: ['yam'] });
    accounts.push(quiet.id);
    const context = await signedInContext(quiet, /^\/dashboard\//);
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${publicUrl}/dashboard/insights`);
    await page.getByText('No activity yet.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Add a product' }).waitFor();
    await screenshot(page, 'farmer-insights-empty-phone');
  });

  it('shows what went wrong, and Try again, when insights cannot be loaded', async () => {
    const page = await farmerContext.newPage();
    let failing = true;
    await page.route('**/api/orders/insights*', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/problem+json',
            // A problem with its code (docs/adr/0064): the page words it from the code, not from `detail`.
            body: JSON.stringify({
              type: 'urn:tuber-market:problem:database-unavailable',
              title: 'Service Unavailable',
              status: 503,
              detail: 'The database is not answering right now. Please try again in a minute.',
              code: 'DATABASE_UNAVAILABLE',
              statusCode: 503,
              error: 'Service Unavailable',
              message: 'The database is not answering right now. Please try again in a minute.',
            }),
          })
        : route.fallback(),
    );
    await page.goto(`${publicUrl}/dashboard/insights`);
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'Your insights could not be loaded: Our database is not answering right now. Nothing was changed.' });
    await alert.waitFor();
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('list', { name: 'Totals, last 7 days' }).waitFor();
  });
});
