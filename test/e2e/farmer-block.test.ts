// A farmer's inbox is theirs (issue 24), in headless Chromium against the real servers, on a 360 px phone:
// a buyer's request is in the farmer's inbox; the farmer opens it, chooses "Block this buyer", confirms in the
// dialog, and sees the buyer under "Blocked buyers". The buyer's next send from the cart is refused: the cart
// says why, in the buyer's words, and keeps the products. Then the farmer, in Yoruba, unblocks, and the
// buyer's send goes through again. Screenshots test-artifacts/farmer-block-*.png (English and Yoruba).
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER_BLOCKED, type OrderRequest } from '@tuber/contracts';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually } from '../support/api.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { accountWithProfile, lagosDay, ordersKnowProduct, postProduct } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

const run = Math.random().toString(36).slice(2, 7);
const BUSINESS = `Block Farms ${run}`;
const PHONE = { width: 360, height: 740 };

let browser: Browser;
let farmer: TestAccount;
let buyer: TestAccount;
let product: { id: string; name: string; price: number };
const contexts: BrowserContext[] = [];

function requestBody(): Record<string, unknown> {
  return {
    request_id: randomUUID(),
    farmer_id: farmer.id,
    lines: [{ product_id: product.id, quantity: 2, price: product.price, unit: 'kg' }],
    fulfilment: 'pickup',
    preferred_date: lagosDay(2),
    phone: '0803 123 4567',
  };
}
const send = () => api<OrderRequest & { code?: string }>('POST', '/api/orders/requests', { token: buyer.accessToken, json: requestBody() });

beforeAll(async () => {
  [farmer, buyer] = await Promise.all([
    accountWithProfile({ role: 'farmer', businessName: BUSINESS, location: 'Ibadan', tuber: ['yam'] }),
    accountWithProfile({ role: 'buyer' }),
  ]);
  const posted = await postProduct(farmer, { product_name: `Block yam ${run}`, price: 1800, unit: 'kg', quantity: 200 });
  product = { id: posted.product_id, name: posted.product_name, price: 1800 };
  await ordersKnowProduct(buyer.accessToken, { farmerId: farmer.id, productId: product.id, price: product.price, unit: 'kg' });
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all([farmer, buyer].filter(Boolean).map((account) => deleteAccount(account.id).catch(() => undefined)));
});

async function phonePage(account: TestAccount): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  contexts.push(context);
  return signInThroughShell(context, account);
}

const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
/** Page errors other than the browser's own line for the 403 the test provokes on purpose. */
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 403/.test(e));

describe('a farmer blocks a buyer from the inbox (issue 24)', () => {
  it('blocks from a request with a confirmation, lists the buyer, the buyer’s cart says why; unblocks in Yoruba', async () => {
    const first = await eventually(send, (a) => a.status === 201, 30_000);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const number = first.body.number;

    // The farmer, on a phone: the request, opened, offers "Block this buyer".
    const farmerPage = await phonePage(farmer);
    const farmerErrors = collectPageErrors(farmerPage);
    await farmerPage.goto(`${publicUrl}/dashboard/inbox`);
    const card = farmerPage.getByTestId('order-request').filter({ hasText: number });
    await card.waitFor({ timeout: 20_000 });
    await card.locator('summary').click();
    const blockButton = card.getByRole('button', { name: 'Block this buyer' });
    await expect.poll(() => blockButton.isEnabled(), { timeout: 15_000 }).toBe(true);
    await blockButton.click();

    // The confirmation says what a block does; nothing is sent before "Block buyer".
    const dialog = farmerPage.getByRole('dialog', { name: 'Block Test Buyer?' });
    await dialog.waitFor();
    await expect
      .poll(() => dialog.textContent())
      .toContain('They will not be able to send you new requests. Requests they already sent stay in your inbox.');
    expect((await api('GET', '/api/orders/blocked-buyers', { token: farmer.accessToken })).body.items).toEqual([]);
    expect(await fitsTheScreen(farmerPage)).toBe(true);
    await screenshot(farmerPage, 'farmer-block-confirm-360-en');
    await dialog.getByRole('button', { name: 'Block buyer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByTestId('buyer-blocked').waitFor();
    expect(await card.getByTestId('buyer-blocked').textContent()).toBe('You blocked this buyer. You can unblock them under Blocked buyers.');

    const blocked = await api('GET', '/api/orders/blocked-buyers', { token: farmer.accessToken });
    expect(blocked.body.items.map((b: { buyer_id: string }) => b.buyer_id)).toEqual([buyer.id]);
    // The request sent before the block is still there, as it was.
    expect((await api('GET', `/api/orders/requests/${first.body.request_id}`, { token: farmer.accessToken })).body.status).toBe('sent');

    // "Blocked buyers (1)" opens the list, with Unblock.
    await farmerPage.getByRole('button', { name: 'Blocked buyers (1)' }).click();
    const list = farmerPage.getByTestId('blocked-buyers');
    await list.getByTestId('blocked-buyer').filter({ hasText: 'Test Buyer' }).waitFor();
    expect(await fitsTheScreen(farmerPage)).toBe(true);
    await farmerPage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(farmerPage, 'farmer-block-list-360-en');

    // The buyer sends from the cart on a phone: refused, said beside the form and in a toast; the cart stays.
    const buyerPage = await phonePage(buyer);
    const buyerErrors = collectPageErrors(buyerPage);
    await buyerPage.goto(`${publicUrl}/dashboard/buyer/${product.id}`);
    await buyerPage.getByRole('heading', { name: product.name }).first().waitFor({ timeout: 20_000 });
    await buyerPage.getByRole('button', { name: 'Add to cart' }).first().click();
    await buyerPage.goto(`${publicUrl}/dashboard/cart`);
    const form = buyerPage.getByRole('form', { name: `Request to ${BUSINESS}` });
    await form.waitFor({ timeout: 20_000 });
    await form.getByLabel('Preferred date').fill(lagosDay(2));
    await form.getByLabel('Your phone number').fill('0803 123 4567');
    await form.getByRole('button', { name: 'Send request' }).click();
    const notice = form.getByTestId('request-blocked');
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toBe(
      `${BUSINESS} is not taking order requests from you, so nothing was sent. Your cart is unchanged: you can remove these products or ask another farmer for them.`,
    );
    await buyerPage.getByText(product.name).first().waitFor();
    expect(await fitsTheScreen(buyerPage)).toBe(true);
    await screenshot(buyerPage, 'farmer-block-buyer-refused-360-en');
    const refused = await send();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(BUYER_BLOCKED);

    // The farmer switches to Yoruba and unblocks from the list.
    await farmerPage.getByTestId('language-switch').selectOption('yo');
    const yoToggle = farmerPage.getByRole('button', { name: 'Àwọn olùrà tí o dènà (1)' });
    await yoToggle.waitFor({ timeout: 20_000 });
    if ((await yoToggle.getAttribute('aria-expanded')) !== 'true') await yoToggle.click();
    await list.getByRole('button', { name: 'Mú ìdènà Test Buyer kúrò' }).waitFor();
    expect(await fitsTheScreen(farmerPage)).toBe(true);
    await farmerPage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(farmerPage, 'farmer-block-list-360-yo');
    await list.getByRole('button', { name: 'Mú ìdènà Test Buyer kúrò' }).click();
    await list.getByText('O kò tíì dènà olùrà kankan.', { exact: false }).waitFor();
    await farmerPage.getByRole('button', { name: 'Àwọn olùrà tí o dènà (0)' }).waitFor();
    await card.getByRole('button', { name: 'Dènà olùrà yìí' }).waitFor();
    await screenshot(farmerPage, 'farmer-block-unblocked-360-yo');
    // Put the farmer's language back for anything else that signs this account in.
    await farmerPage.getByTestId('language-switch').selectOption('en');

    expect((await api('GET', '/api/orders/blocked-buyers', { token: farmer.accessToken })).body.items).toEqual([]);
    expect((await send()).status).toBe(201);
    expect(unexpected(farmerErrors), farmerErrors.join('\n')).toEqual([]);
    expect(unexpected(buyerErrors), buyerErrors.join('\n')).toEqual([]);
  });
});
