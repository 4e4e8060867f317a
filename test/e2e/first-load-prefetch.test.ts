// Issue 13: on a first load of the feed the shell starts the page's first request (the first page of products)
// as soon as the page's module is loaded and the sign-in check has answered, before React renders the page
// (PagePrefetchContext, the buyer FeedPage's `prefetch`), and the page then uses that answer: one request,
// sent before the feed mounted. A search in the address is prefetched as that search.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { collectPageErrors, launchBrowser, publicUrl } from './support/browser.js';
import { signInThroughShell } from './support/signIn.js';

let buyer: TestAccount;
let browser: Browser;
let context: BrowserContext;
const errors: string[][] = [];

beforeAll(async () => {
  buyer = await signedInAccount({ role: 'buyer' });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  (await signInThroughShell(context, buyer, /\/dashboard\/buyer/)).close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (buyer) await deleteAccount(buyer.id);
});

/** Opens `path` fresh and answers the feed requests it sent and when, against the feed's "mounted" mark. */
async function firstLoad(path: string): Promise<{ page: Page; requests: string[]; sentBeforeMount: boolean[] }> {
  const page = await context.newPage();
  errors.push(collectPageErrors(page));
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/catalog/products') requests.push(url.search);
  });
  await page.goto(`${publicUrl}${path}`);
  await page.getByTestId('product-grid').or(page.getByTestId('feed-empty')).first().waitFor({ timeout: 30_000 });
  const sentBeforeMount = await page.evaluate(() => {
    const mounted = performance.getEntriesByName('buyer:feed-mounted')[0]?.startTime ?? Number.NaN;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname === '/api/catalog/products')
      .map((entry) => entry.startTime < mounted);
  });
  return { page, requests, sentBeforeMount };
}

describe('the first page of the feed on a first load', () => {
  it('is asked for once, before the feed has mounted, and the feed shows it', async () => {
    const { page, requests, sentBeforeMount } = await firstLoad('/dashboard/buyer');
    expect(requests).toEqual(['?limit=12']);
    expect(sentBeforeMount).toEqual([true]);
    await page.close();
  });

  it("prefetches the address's search, not the plain feed", async () => {
    const { page, requests, sentBeforeMount } = await firstLoad('/dashboard/buyer?tuber=yam');
    expect(requests).toHaveLength(1);
    expect(new URLSearchParams(requests[0]).get('tuber')).toBe('yam');
    expect(sentBeforeMount).toEqual([true]);
    await page.close();
  });

  it('leaves a page that is not the first load to ask for itself', async () => {
    const page = await context.newPage();
    errors.push(collectPageErrors(page));
    const requests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/catalog/products') requests.push(request.url());
    });
    // Wide: the sidebar's Products link is on screen (on a phone it sits in the menu).
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${publicUrl}/dashboard/cart`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
    expect(requests).toEqual([]);
    await page.getByRole('link', { name: 'Products', exact: true }).first().click();
    await page.getByTestId('product-grid').or(page.getByTestId('feed-empty')).first().waitFor({ timeout: 30_000 });
    expect(requests).toHaveLength(1);
    await page.close();
    expect(errors.flat().filter((e) => !e.includes('favicon'))).toEqual([]);
  });
});
