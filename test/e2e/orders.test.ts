// Issue 12 across both roles, in headless Chromium through the gateway: a buyer with products of two
// farmers in one cart sends one request to each; farmer A accepts (the catalog takes the stock once,
// even when the accepted event is published a second time on NATS), farmer B declines with a reason;
// the buyer sees both statuses on My requests and gets both e-mails in Mailpit. The unread badges of
// the shell come up on pages that stay open (no reload), by the shell's 30 s poll or when the tab
// comes back (focus). Timings (request → farmer's e-mail, accept → stock change) are printed.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderAccepted, type EventPayload } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually } from '../support/api.js';
import { mailCount, waitForMail } from '../support/mail.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { requireIdentityStack } from './support/identity.js';
import { accountWithProfile, catalogProduct, connectBus, consumersSettled, lagosDay, postProduct, tapEvents } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

const run = Math.random().toString(36).slice(2, 7);
const FARMER_A = `Ayo Farms ${run}`;
const FARMER_B = `Bisi Tubers ${run}`;
const STOCK_A = 10;
const ASKED_A = 3;
const DECLINE_REASON = `All sold at the market this morning (${run})`;
/** The badge comes by the live stream at once (ADR 0067), or by the 30 s poll without it: within one poll and some slack. */
const ONE_POLL = 40_000;

let farmerA: TestAccount;
let farmerB: TestAccount;
let buyer: TestAccount;
let productA: { id: string; name: string };
let productB: { id: string; name: string };
let browser: Browser;
const contexts: BrowserContext[] = [];
let buyerPage: Page;
let farmerAPage: Page;
let farmerBPage: Page;
const pageErrors: string[][] = [];
let bus: EventBus;
let accepted: ReturnType<typeof tapEvents<typeof OrderAccepted>>;
/** The buyer's two requests, by farmer. */
const requests = {} as Record<'a' | 'b', { request_id: string; number: string }>;
const timings: Record<string, number> = {};
let sentAt = 0;

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Dashboard menu' });
const header = (page: Page) => page.getByRole('banner');

async function newPage(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  return context;
}

async function signIn(account: TestAccount, home: RegExp): Promise<Page> {
  const page = await signInThroughShell(await newPage(), account, home);
  pageErrors.push(collectPageErrors(page));
  return page;
}

/** The tab comes back to the front: the shell polls at once (focus), as when a person switches back to it. */
const comeBack = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));

/** Marks the document; a page load would lose the mark (client-side navigation keeps it). */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

async function addToCart(page: Page, product: { id: string; name: string }): Promise<void> {
  await page.goto(`${publicUrl}/dashboard/buyer/${product.id}`);
  await page.getByRole('heading', { name: product.name }).first().waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Add to cart' }).first().click();
}

/**
 * Waits for a badge; on failure says what the orders service answers the person (GET /api/orders/unread)
 * and keeps a screenshot, so a badge that never came is told apart from a count that never changed.
 */
async function badge(page: Page, link: ReturnType<Page['getByRole']>, account: TestAccount, name: string, timeout: number): Promise<void> {
  try {
    await link.waitFor({ timeout });
  } catch (error) {
    await screenshot(page, `orders-failed-${name}`);
    const unread = await api('GET', '/api/orders/unread', { token: account.accessToken });
    throw new Error(
      `${name}: no badge within ${timeout} ms; GET /api/orders/unread answers ${unread.status} ${JSON.stringify(unread.body)}`,
      {
        cause: error,
      },
    );
  }
}

async function orderRequests(account: TestAccount): Promise<any[]> {
  const answer = await api('GET', '/api/orders/requests', { token: account.accessToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return Array.isArray(answer.body) ? answer.body : (answer.body.items ?? answer.body.requests ?? []);
}

beforeAll(async () => {
  await requireIdentityStack();
  [farmerA, farmerB, buyer] = await Promise.all([
    accountWithProfile({ role: 'farmer', businessName: FARMER_A, location: 'Ibadan', tuber: ['yam'] }),
    accountWithProfile({ role: 'farmer', businessName: FARMER_B, location: 'Oyo', tuber: ['cassava'] }),
    accountWithProfile({ role: 'buyer' }),
  ]);
  const [a, b] = await Promise.all([
    postProduct(farmerA, { product_name: `Water yam ${run}`, price: 2000, quantity: STOCK_A, tuber_type: 'yam' }),
    postProduct(farmerB, { product_name: `Cassava ${run}`, price: 800, quantity: 20, tuber_type: 'cassava' }),
  ]);
  productA = { id: a.product_id, name: a.product_name };
  productB = { id: b.product_id, name: b.product_name };
  bus = await connectBus('orders-e2e');
  accepted = tapEvents(bus, OrderAccepted);
  // The orders service knows the products and both farmers before the buyer asks.
  await consumersSettled(bus, ['orders-product-created', 'orders-profile-created'], 60_000);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  accepted?.stop();
  await bus?.close().catch(() => undefined);
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all([farmerA, farmerB, buyer].filter(Boolean).map((account) => deleteAccount(account.id)));
  if (Object.keys(timings).length > 0) {
    console.log(
      `[orders] timings (ms): ${Object.entries(timings)
        .map(([what, ms]) => `${what} ${ms}`)
        .join(' · ')}`,
    );
  }
});

describe('a buyer asks two farmers from one cart (issue 12)', () => {
  it('the buyer fills one cart with products of two farmers; the toast leads to it without a page load', async () => {
    // The farmers' pages are open before anything happens: their badges must come up without a reload.
    [farmerAPage, farmerBPage] = await Promise.all([signIn(farmerA, /^\/dashboard\/farmer$/), signIn(farmerB, /^\/dashboard\/farmer$/)]);
    buyerPage = await signIn(buyer, /^\/dashboard\/buyer/);

    await addToCart(buyerPage, productA);
    const viewCart = buyerPage.getByRole('status').filter({ hasText: 'item added to cart' }).getByRole('link', { name: 'View cart' });
    await viewCart.waitFor();
    await header(buyerPage).getByRole('link', { name: 'Cart (1 item in cart)' }).waitFor();
    await addToCart(buyerPage, productB);
    await header(buyerPage).getByRole('link', { name: 'Cart (2 items in cart)' }).waitFor();
    expect(
      await sidebar(buyerPage)
        .getByRole('link', { name: /^Cart/ })
        .textContent(),
    ).toContain('2 items in cart');

    await markDocument(buyerPage);
    await viewCart.click();
    await buyerPage.waitForURL(`${publicUrl}/dashboard/cart`);
    expect(await sameDocument(buyerPage), 'View cart loaded the page again').toBe(true);
    await expect.poll(() => buyerPage.getByTestId('farmer-group').count(), { timeout: 15_000 }).toBe(2);

    // Three of farmer A's product: the badge counts items as the cart's Total Items does.
    const more = buyerPage.getByRole('button', { name: `One more ${productA.name}` });
    await more.click();
    await more.click();
    await header(buyerPage).getByRole('link', { name: 'Cart (4 items in cart)' }).waitFor();
    expect(await buyerPage.getByTestId('cart-total-items').textContent()).toBe('4');
  });

  it('sends one request per farmer; the cart empties, and each farmer gets an e-mail', async () => {
    for (const business of [FARMER_A, FARMER_B]) {
      const form = buyerPage.getByRole('form', { name: `Request to ${business}` });
      await form.getByLabel('Preferred date').fill(lagosDay(2));
      await form.getByLabel('Your phone number').fill('0803 123 4567');
    }
    await buyerPage.evaluate(() => window.scrollTo(0, 0));
    await screenshot(buyerPage, 'orders-cart-two-farmers-1280');
    const farmerMailsBefore = await Promise.all([mailCount(farmerA.email), mailCount(farmerB.email)]);
    sentAt = Date.now();
    await buyerPage.getByRole('button', { name: 'Send all' }).click();
    await buyerPage.getByText('There is no item in the cart').waitFor({ timeout: 20_000 });
    timings['send all → cart empty'] = Date.now() - sentAt;
    await expect.poll(() => header(buyerPage).getByRole('link', { name: 'Cart', exact: true }).count()).toBe(1);

    const sent = await orderRequests(buyer);
    const mine = sent.filter((r) => [farmerA.id, farmerB.id].includes(r.farmer_id));
    expect(mine).toHaveLength(2);
    const [toA, toB] = [farmerA, farmerB].map((farmer) => mine.find((r) => r.farmer_id === farmer.id));
    expect(toA).toMatchObject({ status: 'sent', lines: [{ product_id: productA.id, quantity: ASKED_A, price: 2000 }] });
    expect(toB).toMatchObject({ status: 'sent', lines: [{ product_id: productB.id, quantity: 1, price: 800 }] });
    requests.a = { request_id: toA.request_id, number: toA.number };
    requests.b = { request_id: toB.request_id, number: toB.number };

    const [mailA, mailB] = await Promise.all(
      [farmerA, farmerB].map(async (farmer, i) => {
        const mail = await waitForMail(farmer.email, new RegExp(`New order request ${requests[i === 0 ? 'a' : 'b'].number}`), 30_000);
        timings[`request → farmer ${i === 0 ? 'A' : 'B'} e-mail`] = Date.now() - sentAt;
        return mail;
      }),
    );
    expect(mailA.text).toContain(productA.name);
    expect(mailB.text).toContain(productB.name);
    expect(await Promise.all([mailCount(farmerA.email), mailCount(farmerB.email)])).toEqual(farmerMailsBefore.map((n) => n + 1));
  });

  it("the farmers' Requests badges come up without a reload: by the live stream (the 30 s poll without it), and at once when the tab comes back", async () => {
    await badge(
      farmerAPage,
      sidebar(farmerAPage).getByRole('link', { name: 'Requests (1 unread request)' }),
      farmerA,
      'farmer-A-requests',
      ONE_POLL,
    );
    timings['request → farmer A badge (live stream; the poll without it)'] = Date.now() - sentAt;

    // The badge on a phone: in the green slide-in menu, nothing wider than the screen.
    await farmerAPage.setViewportSize({ width: 360, height: 780 });
    await farmerAPage.getByRole('button', { name: 'Open menu' }).click();
    const drawer = farmerAPage.getByRole('navigation', { name: 'Dashboard menu (small screens)' });
    await drawer.getByRole('link', { name: 'Requests (1 unread request)' }).waitFor();
    await farmerAPage.waitForTimeout(400); // the menu slides in
    expect(await farmerAPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(farmerAPage, 'orders-farmer-badge-menu-360');
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await farmerAPage.setViewportSize({ width: 1280, height: 900 });

    const askedAt = Date.now();
    await comeBack(farmerBPage);
    await badge(
      farmerBPage,
      sidebar(farmerBPage).getByRole('link', { name: 'Requests (1 unread request)' }),
      farmerB,
      'farmer-B-requests',
      5_000,
    );
    timings['focus → farmer B badge'] = Date.now() - askedAt;
  });

  it('farmer A accepts: the stock drops once, and the accepted event published again changes nothing', async () => {
    await sidebar(farmerAPage)
      .getByRole('link', { name: /^Requests/ })
      .click();
    await farmerAPage.waitForURL(`${publicUrl}/dashboard/inbox`);
    const card = farmerAPage.getByTestId('order-request').filter({ hasText: requests.a.number });
    await card.locator('summary').click();
    // The farmer can answer on WhatsApp: the buyer's number as typed in the cart, in E.164, and the request named.
    const whatsApp = new URL((await card.getByRole('link', { name: 'Chat on WhatsApp' }).getAttribute('href')) ?? '');
    expect(`${whatsApp.origin}${whatsApp.pathname}`).toBe('https://wa.me/2348031234567');
    expect(whatsApp.searchParams.get('text')).toContain(requests.a.number);
    expect(whatsApp.searchParams.get('text')).toContain(productA.name);
    await card.getByRole('button', { name: 'Accept', exact: true }).click();
    await screenshot(farmerAPage, 'orders-farmer-accept-1280');
    const acceptAt = Date.now();
    await card.getByRole('button', { name: 'Accept request' }).click();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 15_000 }).toBe('accepted');

    const after = await eventually(
      () => catalogProduct(farmerA.accessToken, productA.id),
      (product) => product.quantity !== STOCK_A,
      20_000,
    );
    timings['accept → stock change'] = Date.now() - acceptAt;
    expect(after.quantity).toBe(STOCK_A - ASKED_A);

    // The catalog's consumer has handled it; now the same acceptance arrives again, as a new message.
    const event = await eventually(
      async () => accepted.seen.find((e) => e.payload.request_id === requests.a.request_id),
      (found) => found !== undefined,
    );
    expect(event, 'no OrderAccepted seen on NATS for the request').toBeDefined();
    await consumersSettled(bus, ['catalog-order-accepted']);
    const again: EventPayload<typeof OrderAccepted> = event!.payload;
    const published = await bus.publish(OrderAccepted, again, `orders-e2e-again:${again.request_id}:${Date.now()}`);
    expect(published.duplicate).toBe(false);
    await consumersSettled(bus, ['catalog-order-accepted']);
    const still = await catalogProduct(farmerA.accessToken, productA.id);
    expect(still).toMatchObject({ quantity: STOCK_A - ASKED_A, revision: after.revision });
  });

  it('farmer B declines with a reason', async () => {
    await sidebar(farmerBPage)
      .getByRole('link', { name: /^Requests/ })
      .click();
    await farmerBPage.waitForURL(`${publicUrl}/dashboard/inbox`);
    const card = farmerBPage.getByTestId('order-request').filter({ hasText: requests.b.number });
    await card.locator('summary').click();
    await card.getByRole('button', { name: 'Decline', exact: true }).click();
    const dialog = farmerBPage.getByRole('dialog');
    await dialog.getByRole('textbox').fill(DECLINE_REASON);
    await dialog.getByRole('button', { name: 'Decline request' }).click();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 15_000 }).toBe('declined');
    expect((await catalogProduct(farmerB.accessToken, productB.id)).quantity).toBe(20);
  });

  it('the buyer gets both answers: the badge without a reload, both statuses on My requests, both e-mails', async () => {
    // The buyer's page stayed on the emptied cart: the shell's poll brings the badge.
    const myRequests = sidebar(buyerPage).getByRole('link', { name: 'My requests (2 unread requests)' });
    await badge(buyerPage, myRequests, buyer, 'buyer-my-requests', ONE_POLL);

    const [acceptedMail, declinedMail] = await Promise.all([
      waitForMail(buyer.email, new RegExp(`${requests.a.number} was accepted`), 30_000),
      waitForMail(buyer.email, new RegExp(`${requests.b.number} was declined`), 30_000),
    ]);
    expect(acceptedMail.text).toContain(productA.name);
    expect(declinedMail.text).toContain(DECLINE_REASON);

    await markDocument(buyerPage);
    await myRequests.click();
    await buyerPage.waitForURL(`${publicUrl}/dashboard/requests`);
    expect(await sameDocument(buyerPage)).toBe(true);
    const card = (id: string) => buyerPage.locator(`[data-testid="request"][data-request-id="${id}"]`);
    await card(requests.a.request_id).waitFor({ timeout: 20_000 });
    expect(await card(requests.a.request_id).getAttribute('data-status')).toBe('accepted');
    expect(await card(requests.b.request_id).getAttribute('data-status')).toBe('declined');
    expect(await card(requests.a.request_id).getByTestId('request-status').textContent()).toBe('Accepted');
    expect(await card(requests.b.request_id).getByTestId('request-status').textContent()).toBe('Declined');
    expect(await card(requests.b.request_id).textContent()).toContain(DECLINE_REASON);
    await screenshot(buyerPage, 'orders-buyer-requests-1280');

    await buyerPage.setViewportSize({ width: 360, height: 780 });
    await buyerPage.waitForTimeout(300);
    expect(
      await buyerPage.evaluate(() => document.documentElement.scrollWidth),
      'My requests scrolls sideways at 360 px',
    ).toBeLessThanOrEqual(360);
    await screenshot(buyerPage, 'orders-buyer-requests-360');
    await buyerPage.getByRole('button', { name: 'Open menu' }).click();
    const drawer = buyerPage.getByRole('navigation', { name: 'Dashboard menu (small screens)' });
    await drawer.getByRole('link', { name: /^My requests/ }).waitFor();
    await buyerPage.waitForTimeout(400); // the menu slides in
    await screenshot(buyerPage, 'orders-buyer-menu-360');
    await drawer.getByRole('button', { name: 'Close menu' }).click();
  });

  it('logout leaves no cart for the next person on the phone', async () => {
    await buyerPage.setViewportSize({ width: 1280, height: 900 });
    await addToCart(buyerPage, productB);
    await header(buyerPage).getByRole('link', { name: 'Cart (1 item in cart)' }).waitFor();
    expect(await buyerPage.evaluate(() => localStorage.getItem('cart'))).toContain(productB.id);
    await header(buyerPage).getByRole('button', { name: 'Logout' }).click();
    await buyerPage.getByRole('dialog', { name: 'Confirm Logout' }).getByRole('button', { name: 'Yes, Logout' }).click();
    await buyerPage.waitForURL(`${publicUrl}/`, { timeout: 30_000 });
    await buyerPage.getByRole('link', { name: 'Join now' }).waitFor();
    expect(await buyerPage.evaluate(() => [localStorage.getItem('cart'), localStorage.getItem('cart_owner')])).toEqual([null, null]);

    const unexpected = pageErrors.flat().filter((e) => !/favicon|status of 40[14]/.test(e));
    expect(unexpected).toEqual([]);
  });
});
