// The farmer's inbox (issue 12) in headless Chromium against the real servers: a buyer sends order requests
// through the orders API; the farmer signs in through the shell, finds them at /dashboard/inbox (lines, units,
// prices, total, tel and WhatsApp links, unread marks that go when a request is opened), accepts one with a
// lowered quantity and a reason, accepts and then fulfils another, is refused (409, the service's words) on
// one the buyer cancelled meanwhile, is offered the latest when a request comes in while the page is open, and
// — on a 360 px phone — declines one with a reason. Statuses show in
// the Accepted and Closed tabs; screenshots test-artifacts/farmer-inbox-*.png at 1280 and 360 px.
import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderRequest } from '@tuber/contracts';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually } from '../support/api.js';
import { uploadPhotos } from './support/market.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';

const run = Math.random().toString(36).slice(2, 7);
const BUYER_PHONE = '0803 123 4567';
const BUYER_E164 = '2348031234567';
// A month from now: the service refuses a preferred date in the past.
const PREFERRED_DAY = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const [year, month, day] = PREFERRED_DAY.split('-').map(Number) as [number, number, number];
const PREFERRED_DAY_TEXT = `${day} ${MONTHS[month - 1]} ${year}`;

let browser: Browser;
let farmer: TestAccount;
let buyer: TestAccount;
/** Accounts made by a test, removed at the end. */
const extraAccounts: TestAccount[] = [];
const product = {} as Record<'yam' | 'cassava', { id: string; name: string; price: number; unit: 'kg' | 'heap' }>;

async function postProduct(body: Record<string, unknown>) {
  const answer = await eventually(
    () => api('POST', '/api/catalog/products', { token: farmer.accessToken, json: body }),
    (a) => a.status !== 409,
    20_000,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** The buyer sends one request (retried while the orders service has not yet learnt the products by event, or restarts). */
async function sendRequest(
  lines: { key: 'yam' | 'cassava'; quantity: number }[],
  extra: Record<string, unknown> = {},
  from: TestAccount = buyer,
): Promise<OrderRequest> {
  const body = {
    request_id: randomUUID(),
    farmer_id: farmer.id,
    lines: lines.map(({ key, quantity }) => ({
      product_id: product[key].id,
      quantity,
      price: product[key].price,
      unit: product[key].unit,
    })),
    fulfilment: 'pickup',
    preferred_date: PREFERRED_DAY,
    phone: BUYER_PHONE,
    ...extra,
  };
  const answer = await eventually(
    () => api<OrderRequest>('POST', '/api/orders/requests', { token: from.accessToken, json: body }),
    (a) => ![409, 502, 503].includes(a.status),
    30_000,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** expect.poll with time for a page of the shell and a remote to load (its default gives up after 1 s). */
const poll = <T>(probe: () => T | Promise<T>) => expect.poll(probe, { timeout: 15_000 });

const asFarmer = (id: string) => api<OrderRequest>('GET', `/api/orders/requests/${id}`, { token: farmer.accessToken });

/** A farmer of this run with a yam and a cassava product (each attempt of the first test starts from an empty inbox). */
async function setUpFarmer(): Promise<void> {
  if (farmer) extraAccounts.push(farmer);
  farmer = await signedInAccount({ role: 'farmer', businessName: `Inbox Farms ${run}`, location: 'Ibadan', tuber: ['yam', 'cassava'] });
  expect([200, 201]).toContain((await api('POST', '/api/profile/me', { token: farmer.accessToken })).status);
  const yam = await postProduct({
    product_name: `Inbox white yam ${run}`,
    description: 'Firm white yam dug this week.',
    tuber_type: 'yam',
    unit: 'kg',
    price: 2500,
    quantity: 100,
    image_ids: await uploadPhotos(farmer, 2, 40, `inbox ${run}`),
    cultural: 'The king of crops.',
  });
  product.yam = { id: yam.product_id, name: yam.product_name, price: 2500, unit: 'kg' };
  const cassava = await postProduct({
    product_name: `Inbox cassava ${run}`,
    description: 'Sweet cassava in heaps.',
    tuber_type: 'cassava',
    unit: 'heap',
    unit_weight_kg: 8,
    price: 2000.5,
    quantity: 20,
    image_ids: await uploadPhotos(farmer, 2, 140, `inbox ${run}`),
    cultural: 'Gari and fufu.',
  });
  product.cassava = { id: cassava.product_id, name: cassava.product_name, price: 2000.5, unit: 'heap' };
}

beforeAll(async () => {
  buyer = await signedInAccount({ role: 'buyer' });
  expect([200, 201]).toContain((await api('POST', '/api/profile/me', { token: buyer.accessToken })).status);
  await setUpFarmer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([farmer, buyer, ...extraAccounts].filter(Boolean).map((account) => deleteAccount(account.id).catch(() => undefined)));
});

/** Signs in through the shell's /login and Keycloak's form, as the farmer does. */
async function signIn(page: Page, account: TestAccount) {
  await page.goto(`${publicUrl}/login`);
  const username = page.locator('#username');
  const loginButton = page.getByRole('main').getByRole('button', { name: 'Login' });
  await username.or(loginButton).first().waitFor({ timeout: 20_000 });
  if (await loginButton.isVisible()) await loginButton.click();
  await username.fill(account.email);
  await page.locator('#password').fill(account.password);
  await page.locator('#kc-login').click();
  await page.waitForURL((url) => url.origin === publicUrl && !url.pathname.startsWith('/auth/') && !url.pathname.startsWith('/login'), {
    timeout: 30_000,
  });
}

/** Remembers every toast (they leave after 4 s) as it appears. */
async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { toastsSeen: string[] }).toastsSeen = []);
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.addedNodes))
          if (
            node instanceof HTMLElement &&
            node.matches('[role="alert"], [role="status"]') &&
            node.parentElement?.getAttribute('aria-live') === 'polite'
          )
            seen.push(node.textContent?.replace(/×$/, '').trim() ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
}
const toastShown = (page: Page, message: string | RegExp) =>
  expect
    .poll(
      async () => {
        const seen = await page.evaluate(() => (window as unknown as { toastsSeen?: string[] }).toastsSeen ?? []);
        return seen.some((text) => (typeof message === 'string' ? text === message : message.test(text)));
      },
      { timeout: 15_000 },
    )
    .toBe(true);

const requestCard = (page: Page, number: string): Locator => page.getByTestId('order-request').filter({ hasText: number });
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function openCard(card: Locator) {
  const summary = card.locator('summary');
  if ((await card.locator('details').getAttribute('open')) === null) await summary.click();
  await card.getByRole('table').waitFor();
}

async function tab(page: Page, name: 'New' | 'Accepted' | 'Closed' | 'All') {
  await page.getByRole('tab', { name, exact: true }).click();
  await poll(() => page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
}

/** Attempts of the first test: a retry (vitest's retry: 1) gets a new farmer, whose inbox is empty again. */
let firstTestAttempts = 0;

describe('farmer inbox', () => {
  it('shows the requests buyers send, and the farmer accepts (quantity lowered with a reason), fulfils, is refused on a cancelled one, and declines on a phone', async () => {
    if (++firstTestAttempts > 1) await setUpFarmer();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await recordToasts(page);
    const reads: string[] = [];
    page.on('request', (request) => {
      const match = /\/api\/orders\/requests\/([^/]+)\/read$/.exec(new URL(request.url()).pathname);
      if (request.method() === 'POST' && match) reads.push(match[1]!);
    });
    try {
      await signIn(page, farmer);

      // Nothing yet: the empty state.
      await page.goto(`${publicUrl}/dashboard/inbox`);
      await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
      await page.getByText("No requests yet. Buyers' requests for your products will appear here.").waitFor();

      // The buyer sends four requests (oldest first).
      const toAccept = await sendRequest(
        [
          { key: 'yam', quantity: 10 },
          { key: 'cassava', quantity: 3 },
        ],
        { note: 'Please pick the biggest tubers.' },
      );
      const toDecline = await sendRequest([{ key: 'cassava', quantity: 2 }], { fulfilment: 'delivery', address: '12 Ring Road, Ibadan' });
      const toFulfil = await sendRequest([{ key: 'yam', quantity: 5 }]);
      const toBeCancelled = await sendRequest([{ key: 'yam', quantity: 1 }]);

      await page.reload();
      const cards = page.getByTestId('order-request');
      await poll(() => cards.count()).toBe(4);
      // Newest first, each unread.
      const numbers = await cards.locator('summary').evaluateAll((summaries) => summaries.map((s) => s.textContent ?? ''));
      expect(numbers.map((text) => /TM-\d+/.exec(text)?.[0])).toEqual([toBeCancelled, toFulfil, toDecline, toAccept].map((r) => r.number));
      expect(await page.getByTestId('unread-mark').count()).toBe(4);

      // The first request opened: its lines with units and prices, the total, pickup, the date, the note, the
      // buyer's phone and WhatsApp; opening it reads it.
      const first = requestCard(page, toAccept.number);
      await openCard(first);
      const table = first.getByRole('table');
      const yamRow = table.getByRole('row').filter({ hasText: product.yam.name });
      await poll(() => yamRow.textContent()).toContain('10 kg');
      expect(await yamRow.textContent()).toContain('₦2,500.00 per kg');
      expect(await yamRow.textContent()).toContain('₦25,000.00');
      const cassavaRow = table.getByRole('row').filter({ hasText: product.cassava.name });
      expect(await cassavaRow.textContent()).toContain('3 heaps');
      expect(await cassavaRow.textContent()).toContain('₦2,000.50 per heap');
      expect(await first.getByTestId('request-total').textContent()).toBe('₦31,001.50');
      expect(await first.textContent()).toContain('Pickup');
      expect(await first.textContent()).toContain(PREFERRED_DAY_TEXT);
      expect(await first.textContent()).toContain('Please pick the biggest tubers.');
      expect(await first.getByRole('link', { name: '+234 803 123 4567' }).getAttribute('href')).toBe(`tel:+${BUYER_E164}`);
      const whatsApp = await first.getByRole('link', { name: 'Chat on WhatsApp' }).getAttribute('href');
      expect(whatsApp).toMatch(new RegExp(`^https://wa\\.me/${BUYER_E164}\\?text=`));
      const text = decodeURIComponent(whatsApp!.split('?text=')[1]!);
      expect(text).toContain(toAccept.number);
      expect(text).toContain(`${product.yam.name}: 10 kg at ₦2,500.00 per kg`);
      expect(text).toContain(`${product.cassava.name}: 3 heaps at ₦2,000.50 per heap`);
      expect(text).toContain('Total: ₦31,001.50');
      await poll(() => reads).toContain(toAccept.request_id);
      await poll(() => first.getByTestId('unread-mark').count()).toBe(0);
      await poll(async () => (await asFarmer(toAccept.request_id)).body.unread).toBe(false);
      await screenshot(page, 'farmer-inbox-desktop-new');

      // Accept with a lower quantity: the reason is asked for first.
      await first.getByRole('button', { name: 'Accept', exact: true }).click();
      const acceptForm = first.getByRole('form', { name: `Accept ${toAccept.number}` });
      const yamQuantity = acceptForm.getByLabel(new RegExp(product.yam.name));
      expect(await yamQuantity.inputValue()).toBe('10');
      expect(await yamQuantity.getAttribute('max')).toBe('10');
      await yamQuantity.fill('7.5');
      await acceptForm.getByRole('button', { name: 'Accept request' }).click();
      await acceptForm.getByText('Say why you are accepting less than the buyer asked for').waitFor();
      await acceptForm.getByLabel(/Reason for the lower quantity/).fill('Only 7.5 kg dug so far; more next week.');
      await acceptForm.getByRole('button', { name: 'Accept request' }).click();
      await toastShown(page, 'Request accepted successfully!');
      await poll(() => first.getAttribute('data-status')).toBe('accepted');
      await poll(() => yamRow.textContent()).toContain('7.5 kg (asked 10 kg)');
      expect(await first.textContent()).toContain('Reason: Only 7.5 kg dug so far; more next week.');
      const accepted = (await asFarmer(toAccept.request_id)).body;
      expect(accepted.status).toBe('accepted');
      expect(accepted.lines.find((line) => line.product_id === product.yam.id)?.accepted_quantity).toBe(7.5);
      expect(accepted.history.at(-1)).toMatchObject({
        status: 'accepted',
        by: 'farmer',
        reason: 'Only 7.5 kg dug so far; more next week.',
      });

      // Accept as asked, then mark fulfilled.
      const third = requestCard(page, toFulfil.number);
      await openCard(third);
      await third.getByRole('button', { name: 'Accept', exact: true }).click();
      await third
        .getByRole('form', { name: `Accept ${toFulfil.number}` })
        .getByRole('button', { name: 'Accept request' })
        .click();
      await poll(() => third.getAttribute('data-status')).toBe('accepted');
      // Meanwhile a fifth request comes in: the list stays as it is, and once the shell's unread count has
      // risen (its poll, or the check after an action) a notice offers the latest.
      const late = await sendRequest([{ key: 'cassava', quantity: 1 }]);
      await third.getByRole('button', { name: 'Mark fulfilled' }).click();
      await toastShown(page, 'Request marked as fulfilled.');
      await poll(() => third.getAttribute('data-status')).toBe('fulfilled');
      expect((await asFarmer(toFulfil.request_id)).body.status).toBe('fulfilled');
      expect(await requestCard(page, late.number).count()).toBe(0);
      await page.getByRole('button', { name: 'Show the latest' }).click();
      await requestCard(page, late.number).waitFor();
      await poll(() => page.getByRole('button', { name: 'Show the latest' }).count()).toBe(0);

      // The buyer cancels one while the farmer has it open: accepting it is refused with the service's words.
      const fourth = requestCard(page, toBeCancelled.number);
      await openCard(fourth);
      const cancelled = await api('POST', `/api/orders/requests/${toBeCancelled.request_id}/cancel`, {
        token: buyer.accessToken,
        json: { reason: 'Found some at the market.' },
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      await fourth.getByRole('button', { name: 'Accept', exact: true }).click();
      await fourth
        .getByRole('form', { name: `Accept ${toBeCancelled.number}` })
        .getByRole('button', { name: 'Accept request' })
        .click();
      await toastShown(page, new RegExp(`^Error accepting request: ${toBeCancelled.number} was cancelled`));
      // …and the list is read again: in the New tab only the one left to decline and the late one stay.
      await poll(() => cards.count()).toBe(2);
      expect(await page.getByRole('button', { name: 'Show the latest' }).count()).toBe(0);

      await tab(page, 'Accepted');
      await requestCard(page, toAccept.number).waitFor();
      expect(await cards.count()).toBe(1);
      expect(await requestCard(page, toAccept.number).textContent()).toContain('Accepted');
      await screenshot(page, 'farmer-inbox-desktop-accepted');
      await tab(page, 'Closed');
      await requestCard(page, toFulfil.number).waitFor();
      await requestCard(page, toBeCancelled.number).waitFor();
      expect(await requestCard(page, toFulfil.number).locator('summary').textContent()).toContain('Fulfilled');
      expect(await requestCard(page, toBeCancelled.number).locator('summary').textContent()).toContain('Cancelled');
      expect(new URL(page.url()).search).toBe('?tab=closed');
      expect(await fitsTheScreen(page)).toBe(true);
      await screenshot(page, 'farmer-inbox-desktop-closed');
      // The tabs answer the arrow keys, as tabs do.
      await page.getByRole('tab', { name: 'Closed', exact: true }).press('ArrowLeft');
      await poll(() => page.getByRole('tab', { name: 'Accepted', exact: true }).getAttribute('aria-selected')).toBe('true');
      expect(new URL(page.url()).search).toBe('?tab=accepted');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Accepted');
      expect(errors.filter((e) => !e.includes('409'))).toEqual([]);

      // On a 360 px phone: the New tab fits the screen, and the last request is declined with a reason.
      const phone = await browser.newContext({
        viewport: { width: 360, height: 740 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      });
      const mobile = await phone.newPage();
      await recordToasts(mobile);
      try {
        await signIn(mobile, farmer);
        await mobile.goto(`${publicUrl}/dashboard/inbox`);
        const card = requestCard(mobile, toDecline.number);
        await card.waitFor();
        await openCard(card);
        expect(await card.textContent()).toContain('Delivery to');
        expect(await card.textContent()).toContain('12 Ring Road, Ibadan');
        expect(await fitsTheScreen(mobile)).toBe(true);
        await screenshot(mobile, 'farmer-inbox-phone-new');
        await card.getByRole('button', { name: 'Decline' }).tap();
        const dialog = mobile.getByRole('dialog', { name: `Decline request ${toDecline.number}?` });
        await dialog.getByRole('button', { name: 'Decline request' }).tap();
        await dialog.getByText('Give a reason (the buyer reads it).').waitFor();
        await dialog.getByLabel('Reason').fill('No cassava left until January.');
        expect(await fitsTheScreen(mobile)).toBe(true);
        await screenshot(mobile, 'farmer-inbox-phone-decline');
        await dialog.getByRole('button', { name: 'Decline request' }).tap();
        await toastShown(mobile, 'Request declined.');
        await poll(() => card.getAttribute('data-status')).toBe('declined');
        expect(await card.textContent()).toContain('Reason: No cassava left until January.');
        const declined = (await asFarmer(toDecline.request_id)).body;
        expect(declined.status).toBe('declined');
        expect(declined.history.at(-1)).toMatchObject({ status: 'declined', by: 'farmer', reason: 'No cassava left until January.' });

        await tab(mobile, 'Closed');
        await requestCard(mobile, toDecline.number).waitFor();
        await openCard(requestCard(mobile, toDecline.number));
        expect(await fitsTheScreen(mobile)).toBe(true);
        await screenshot(mobile, 'farmer-inbox-phone-closed');
      } finally {
        await phone.close();
      }
    } catch (error) {
      await screenshot(page, 'farmer-inbox-failure').catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });
  it('lists 20 requests a page, newest first, and "Load more" brings the next ones', async () => {
    // A buyer may send 20 requests in 10 minutes: a second buyer sends 20, the first one more, so the New
    // tab holds at least 21 whatever the test above left.
    const second = await signedInAccount({ role: 'buyer' });
    extraAccounts.push(second);
    expect([200, 201]).toContain((await api('POST', '/api/profile/me', { token: second.accessToken })).status);
    for (let n = 0; n < 20; n++) await sendRequest([{ key: 'yam', quantity: 1 }], {}, second);
    const newest = await sendRequest([{ key: 'cassava', quantity: 1 }]);
    // Every request waiting for the farmer, newest first, as the service pages them.
    const expected: string[] = [];
    for (let cursor: string | null = null; ;) {
      const query: string = `/api/orders/requests?status=sent&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const answer = await api<{ items: OrderRequest[]; next_cursor: string | null }>('GET', query, { token: farmer.accessToken });
      expect(answer.status).toBe(200);
      expected.push(...answer.body.items.map((request) => request.number));
      cursor = answer.body.next_cursor;
      if (!cursor) break;
    }
    expect(expected.length).toBeGreaterThanOrEqual(21);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await signIn(page, farmer);
      await page.goto(`${publicUrl}/dashboard/inbox`);
      const cards = page.getByTestId('order-request');
      await poll(() => cards.count()).toBe(20);
      const shown = () => cards.locator('summary').evaluateAll((all) => all.map((s) => /TM-\d+/.exec(s.textContent ?? '')?.[0]));
      expect(await shown()).toEqual(expected.slice(0, 20));
      expect((await shown())[0]).toBe(newest.number);
      const loadMore = page.getByRole('button', { name: 'Load more' });
      while (await loadMore.count()) {
        const before = await cards.count();
        await loadMore.click();
        await poll(async () => (await cards.count()) > before || (await loadMore.count()) === 0).toBe(true);
      }
      // Every one once, in the service's order, and nothing more to load.
      expect(await shown()).toEqual(expected);
    } catch (error) {
      await screenshot(page, 'farmer-inbox-pages-failure').catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  });
});
