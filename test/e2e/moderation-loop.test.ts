// Reports and their effects (issue 26, docs/adr/0071), in headless Chromium against the real servers: a buyer with
// the listing in the cart reports it at 360 px; a moderator hides it (through the desk's API: the desk's own
// screens are the next part); the farmer's list at 360 px in Yoruba shows it hidden and why; the buyer's cart
// marks it "No longer available"; the moderator shows it again and the buyer can open it.
// Screenshots test-artifacts/moderation-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import buyerEn from '../../frontends/buyer/src/i18n/en.json' with { type: 'json' };
import farmerYo from '../../frontends/farmer/src/i18n/yo.json' with { type: 'json' };
import uiEn from '../../frontends/ui/src/i18n/en.json' with { type: 'json' };
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually } from '../support/api.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { waitForCatalogues } from './support/catalogues.js';
import { accountWithProfile, postProduct } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

let browser: Browser;
let farmer: TestAccount;
let buyer: TestAccount;
let moderator: TestAccount;
let productId = '';
const NAME = `Reported yam ${Math.random().toString(36).slice(2, 6)}`;
const REASON = 'The photos are of another farm’s yams.';
const contexts: BrowserContext[] = [];

async function page(account: TestAccount, locale = 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  contexts.push(context);
  await context.addInitScript((chosen) => localStorage.setItem('tuber.locale', chosen), locale);
  return signInThroughShell(context, account);
}
const moderate = (action: string, reason: string) =>
  api('POST', `/api/moderation/targets/product/${productId}/actions`, { token: moderator.accessToken, json: { action, reason } });

beforeAll(async () => {
  [farmer, buyer, moderator] = await Promise.all([
    accountWithProfile({ role: 'farmer', businessName: 'Moderated Farm', location: 'Oyo', tuber: ['yam'] }),
    accountWithProfile({ role: 'buyer' }),
    signedInAccount({ role: 'buyer', moderator: true }),
  ]);
  productId = (await postProduct(farmer, { product_name: NAME, price: 1200, unit: 'kg', quantity: 50 })).product_id;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all([farmer, buyer, moderator].filter(Boolean).map((account) => deleteAccount(account.id)));
});

describe('a reported listing, hidden and shown again', () => {
  it('is reported by a buyer, hidden for buyers, explained to its farmer, and back once restored', async () => {
    const phone = await page(buyer);
    const errors = collectPageErrors(phone);
    await phone.goto(`${publicUrl}/dashboard/buyer/${productId}`);
    await phone.getByTestId('product-detail').waitFor();
    await phone.getByRole('button', { name: 'Add to cart' }).click();
    await phone.getByText('item added to cart').first().waitFor();

    // The moderation service learns the product from the catalog's event: the report form may meet a 404 first.
    await phone.getByTestId('report-open').click();
    const form = phone.getByTestId('report-form');
    await form.getByLabel(uiEn['report.reason_wrong_photos']).check();
    await form.getByLabel(uiEn['report.note']).fill('Same photo as another farm’s listing.');
    await screenshot(phone, 'moderation-report-en-360');
    await expect
      .poll(
        async () => {
          if (await phone.getByTestId('report-sent').isVisible()) return true;
          await form.getByRole('button', { name: uiEn['report.send'] }).click();
          await phone.waitForTimeout(500);
          return phone.getByTestId('report-sent').isVisible();
        },
        { timeout: 20_000, intervals: [1_000] },
      )
      .toBe(true);
    expect(await phone.getByTestId('report-sent').textContent()).toBe(uiEn['report.sent']);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(phone, 'moderation-reported-en-360');

    // The moderator hides it.
    const queue = await api('GET', '/api/moderation/queue', { token: moderator.accessToken });
    expect(queue.body.items.some((item: { target: { target_id: string } }) => item.target.target_id === productId)).toBe(true);
    expect((await moderate('hide', REASON)).status).toBe(201);
    await eventually(() => api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken }), (a) => a.status === 404, 15_000);

    // The farmer sees it hidden, and why, in Yoruba at 360 px.
    const farm = await page(farmer, 'yo');
    const farmErrors = collectPageErrors(farm);
    await farm.goto(`${publicUrl}/dashboard/productLists`);
    await waitForCatalogues(farm, 'yo', ['farmer']);
    const card = farm.locator(`[data-product-id="${productId}"]`);
    const withheld = card.getByTestId('product-withheld');
    await withheld.waitFor();
    expect(await withheld.textContent()).toContain(farmerYo['list.withheld_hidden']);
    expect(await withheld.textContent()).toContain(REASON);
    await withheld.scrollIntoViewIfNeeded();
    expect(await farm.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(farm, 'moderation-withheld-yo-360');

    // The buyer's cart marks it.
    await phone.goto(`${publicUrl}/dashboard/cart`);
    const line = phone.locator(`[data-testid="cart-item"][data-product-id="${productId}"]`);
    await expect.poll(() => line.getByTestId('cart-item-status').textContent(), { timeout: 15_000 }).toContain(buyerEn['stock.gone']);
    await screenshot(phone, 'moderation-cart-gone-en-360');

    // Shown again: the buyer opens it, the farmer's note is gone.
    expect((await moderate('unhide', 'The farmer sent photos of their own yams.')).status).toBe(201);
    await eventually(() => api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken }), (a) => a.status === 200, 15_000);
    await phone.goto(`${publicUrl}/dashboard/buyer/${productId}`);
    await phone.getByTestId('product-detail').getByRole('heading', { name: NAME }).waitFor();
    await farm.reload();
    await card.waitFor();
    expect(await card.getByTestId('product-withheld').count()).toBe(0);

    // The hidden product's 404s are the browser's own console lines (the cart asked for it); nothing else.
    const unexpected = [...errors, ...farmErrors].filter((error) => !/status of 404/.test(error));
    expect(unexpected).toEqual([]);
  }, 180_000);
});
