// Issue 13 on the buyer's pages, in headless Chromium through the gateway: the feed cards and the product page
// ask for the photo variant that fits (srcset of the media service's 200/640 px WebP copies, `sizes` equal to
// the slot the layout gives the photo), the first card is fetched first and the cards far below only when the
// buyer scrolls near them, nothing jumps (CLS), and the pages read in Yoruba (and the other languages) with
// no missing message and no sideways scroll on a 360 px phone. Screenshots: test-artifacts/buyer-i18n-*.
//
// Setup as in buyer.test.ts: a farmer whose location has a word of this run only posts products with real
// photos through the APIs; the buyer signs in through the shell's /login and Keycloak's form.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually } from '../support/api.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { uploadPhotos } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

const run = Math.random().toString(36).slice(2, 7);
const market = `Ojaimg${run}`;
const PRODUCTS = 8;
/** A long Yoruba-looking business name: the cards must wrap or cut it, never scroll sideways. */
const BUSINESS = `Ọlọ́runṣógo Àgbẹ̀ Iṣu àti Gbágùdá ${run}`;

let farmer: TestAccount;
let buyer: TestAccount;
let browser: Browser;
/** A phone: 360 × 740 CSS px at density 2. */
let phone: BrowserContext;
/** A laptop: 1280 × 900 at density 1. */
let laptop: BrowserContext;
const posted: {
  product_id: string;
  product_name: string;
  tuber_type: string;
  images: string[];
  image_cards: string[];
  image_thumbs: string[];
}[] = [];
const pageErrors: string[][] = [];

/** The Yoruba names of the tubers posted (from the search synonyms). */
const YORUBA_TUBER: Record<string, string> = { yam: 'iṣu', cassava: 'gbágùdá' };

const feedPath = `/dashboard/buyer?location=${encodeURIComponent(market)}`;

async function open(context: BrowserContext, path: string, locale: string | null = null): Promise<Page> {
  const page = await context.newPage();
  pageErrors.push(collectPageErrors(page));
  await page.addInitScript((chosen) => {
    if (chosen) localStorage.setItem('tuber.locale', chosen);
    else localStorage.removeItem('tuber.locale');
    // Every layout shift from the first paint on (CLS as Lighthouse counts it: not right after input).
    (window as unknown as { __shifts: number[] }).__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) (window as unknown as { __shifts: number[] }).__shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  }, locale);
  await page.goto(`${publicUrl}${path}`);
  return page;
}

const cls = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0));

/** The buyer catalogue's messages the page asked for and its language lacks (the facade records them). */
const missingBuyerKeys = (page: Page) =>
  page.evaluate(() =>
    [...((globalThis as { __tuberMissingKeys?: Set<string> }).__tuberMissingKeys ?? [])].filter((key) => key.startsWith('buyer:')),
  );

/**
 * Sideways scroll caused by the buyer's page: elements of the page (inside the shell's <main>) that stick out
 * of the screen. The shell's header is the shell's own (checked by its tests), so it is only reported.
 */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}.${String(element.className)} "${(element.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(element.getBoundingClientRect().right)}`;
    const out = (root: ParentNode) =>
      [...root.querySelectorAll('*')]
        .filter((element) => element.children.length === 0 && element.getBoundingClientRect().right > width + 0.5)
        .map(describe);
    return {
      page: out(document.querySelector('main') ?? document.body),
      header: out(document.querySelector('header') ?? document.createElement('div')),
    };
  });
  if (found.header.length > 0) console.warn(`the shell's header sticks out at ${page.url()}: ${found.header.slice(0, 3).join('; ')}`);
  expect(found.page, `the buyer's page scrolls sideways at ${page.url()}`).toEqual([]);
}

/**
 * The width `sizes` gives at this viewport (the first entry whose media matches, resolved by the browser
 * itself on a probe element) and the width the photo really has on screen.
 */
async function sizesAgainstLayout(page: Page, selector: string): Promise<{ sizes: number; shown: number }> {
  return page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => {
      const entries = img.sizes.split(/,\s*(?=\(|calc\(|min\()/).map((part) => part.trim());
      let length = entries[entries.length - 1]!;
      for (const entry of entries) {
        const match = /^(\([^)]*\))\s+(.+)$/.exec(entry);
        if (match && matchMedia(match[1]!).matches) {
          length = match[2]!;
          break;
        }
      }
      const probe = document.createElement('div');
      probe.style.cssText = `position:absolute;visibility:hidden;width:${length}`;
      document.body.append(probe);
      const sizes = probe.getBoundingClientRect().width;
      probe.remove();
      return { sizes, shown: img.getBoundingClientRect().width };
    });
}

beforeAll(async () => {
  const gateway = await fetch(`${publicUrl}/api/nutrition/yam`, { signal: AbortSignal.timeout(5000) }).catch((error: Error) => error);
  if (gateway instanceof Error || !gateway.ok)
    throw new Error(`the gateway does not answer at ${publicUrl}; start the stack (make up) or set PUBLIC_URL`);
  [farmer, buyer] = await Promise.all([
    signedInAccount({ role: 'farmer', businessName: BUSINESS, location: `${market}, Oyo State`, tuber: ['yam', 'cassava'] }),
    signedInAccount({ role: 'buyer' }),
  ]);
  for (const account of [farmer, buyer])
    expect([200, 201]).toContain((await api('POST', '/api/profile/me', { token: account.accessToken })).status);

  // Photos larger than a card, so the original, the 640 px card and the 200 px thumbnail are three files.
  for (let i = 0; i < PRODUCTS; i++) {
    const json = {
      product_name: `Photo yam ${i + 1} ${run}`,
      description: 'Big white yams from the hills, dug this week and sorted by size before the market day.',
      cultural: 'Pounded for the family on Sundays.',
      tuber_type: i % 2 ? 'cassava' : 'yam',
      unit: 'heap',
      unit_weight_kg: 5,
      price: 2000 + i * 100,
      quantity: 12,
      image_ids: await uploadPhotos(farmer, 2, i * 30, `images ${run}`, { width: 1200, height: 900 }),
    };
    const answer = await eventually(
      () => api('POST', '/api/catalog/products', { token: farmer.accessToken, json }),
      (a) => a.status !== 409, // the catalog has not heard of the farmer's profile yet
      30_000,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    posted.push(answer.body);
  }
  posted.reverse(); // the feed shows the newest first

  browser = await launchBrowser();
  phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  laptop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  for (const context of [phone, laptop]) {
    // Signed in in English (the shell's /login button is found by its English name), then each test picks a language.
    const page = await signInThroughShell(context, buyer, /^\/dashboard\/buyer/);
    await page.close();
  }
}, 300_000);

afterAll(async () => {
  await phone?.close().catch(() => undefined);
  await laptop?.close().catch(() => undefined);
  await browser?.close();
  await Promise.all([farmer, buyer].filter(Boolean).map((account) => deleteAccount(account.id)));
});

describe('feed photos (issue 13)', () => {
  it('on a phone: the card variant (never the original), sizes = the slot, first card first, far cards lazily, no jump', async () => {
    const requested: string[] = [];
    phone.on('request', (request) => requested.push(request.url()));
    const feed = await open(phone, feedPath);
    const cards = feed.getByTestId('product-card');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(PRODUCTS);
    const first = cards.first().locator('img');
    await expect
      .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 })
      .toBe(true);

    const attrs = await first.evaluate((img: HTMLImageElement) => ({
      srcset: img.getAttribute('srcset'),
      loading: img.getAttribute('loading'),
      priority: img.getAttribute('fetchpriority'),
      currentSrc: img.currentSrc,
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
    }));
    const newest = posted[0]!;
    expect(attrs.srcset).toBe(`${newest.image_thumbs[0]} 200w, ${newest.image_cards[0]} 640w`);
    expect(attrs.loading).toBe('eager');
    expect(attrs.priority).toBe('high');
    // Density 2 on a 328 px slot wants 656 px: the 640 px card, not the 1200 px original.
    expect(attrs.currentSrc).toBe(newest.image_cards[0]);
    expect(requested).not.toContain(newest.images[0]);
    expect(Number(attrs.width) / Number(attrs.height)).toBeCloseTo(4 / 3);

    const { sizes, shown } = await sizesAgainstLayout(feed, '[data-testid="product-card"] img');
    expect(Math.abs(sizes - shown), `sizes says ${sizes}px, the photo is ${shown}px wide`).toBeLessThanOrEqual(2);

    // The last card is thousands of pixels down: its photo is not fetched until the buyer scrolls there.
    const last = posted[PRODUCTS - 1]!;
    expect(await cards.last().locator('img').getAttribute('loading')).toBe('lazy');
    await feed.waitForTimeout(1000);
    expect(requested.filter((url) => url === last.image_cards[0] || url === last.image_thumbs[0])).toEqual([]);
    await cards.last().scrollIntoViewIfNeeded();
    await expect.poll(() => requested.some((url) => url === last.image_cards[0]), { timeout: 15_000 }).toBe(true);

    expect(await cls(feed)).toBeLessThanOrEqual(0.1);
    await expectNoSidewaysScroll(feed);
    await feed.close();
  });

  it('on a phone: the other photos wait until the first is on the screen (3 s at most), then load; a first photo that fails holds nothing', async () => {
    // Its own context without the service worker, so the gateway's answers can be held here.
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    try {
      await (await signInThroughShell(context, buyer, /^\/dashboard\/buyer/)).close();
      const others = posted.slice(1).flatMap((product) => [product.image_cards[0], product.image_thumbs[0]]);
      const firstCard = posted[0]!.image_cards[0]!;
      const requested: string[] = [];
      context.on('request', (request) => requested.push(request.url()));
      let letFirstGo: () => void = () => undefined;
      const firstHeld = new Promise<void>((resolve) => (letFirstGo = resolve));
      await context.route(firstCard, async (route) => {
        await firstHeld;
        await route.continue();
      });

      const feed = await open(context, feedPath);
      const cards = feed.getByTestId('product-card');
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(PRODUCTS);
      await expect.poll(() => requested.includes(firstCard), { timeout: 10_000 }).toBe(true);
      // The first photo is on its way and held: the second card's photo (just under the fold, close enough for
      // the browser's own lazy loading) is not asked for, and has no address yet; its box keeps its size.
      await feed.waitForTimeout(1500);
      expect(requested.filter((url) => others.includes(url))).toEqual([]);
      const second = cards.nth(1).locator('img');
      expect(await second.getAttribute('src')).toBeNull();
      expect(await second.getAttribute('srcset')).toBeNull();
      const box = await second.boundingBox();
      expect(box && box.width > 250 && Math.abs(box.width / box.height - 4 / 3) < 0.02, JSON.stringify(box)).toBe(true);

      // A first photo that takes too long holds the others 3 s at most: the second is asked for while the first
      // is still held.
      const first = cards.first().locator('img');
      await expect.poll(() => requested.includes(posted[1]!.image_cards[0]!), { timeout: 5_000 }).toBe(true);
      expect(await first.evaluate((img: HTMLImageElement) => img.complete)).toBe(false);
      letFirstGo();
      await expect
        .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 })
        .toBe(true);
      await expect
        .poll(() => second.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 })
        .toBe(true);
      expect(await cls(feed)).toBeLessThanOrEqual(0.1);
      await feed.close();

      // Nothing held: the second photo is asked for after the first has arrived, and soon after (it is on the
      // screen), not after the longest wait.
      await context.unroute(firstCard);
      const events: { url: string; what: 'asked' | 'arrived'; at: number }[] = [];
      const onRequest = (request: { url: () => string }) => events.push({ url: request.url(), what: 'asked', at: Date.now() });
      const onFinished = (request: { url: () => string }) => events.push({ url: request.url(), what: 'arrived', at: Date.now() });
      context.on('request', onRequest);
      context.on('requestfinished', onFinished);
      const plain = await open(context, feedPath);
      await expect.poll(() => events.some((e) => e.url === posted[1]!.image_cards[0] && e.what === 'asked'), { timeout: 30_000 }).toBe(true);
      const firstArrived = events.find((e) => e.url === firstCard && e.what === 'arrived');
      const secondAsked = events.find((e) => e.url === posted[1]!.image_cards[0] && e.what === 'asked')!;
      expect(firstArrived, 'the first photo arrived before the second was asked for').toBeDefined();
      expect(secondAsked.at).toBeGreaterThanOrEqual(firstArrived!.at);
      expect(secondAsked.at - firstArrived!.at).toBeLessThan(2500);
      context.off('request', onRequest);
      context.off('requestfinished', onFinished);
      await plain.close();

      // The first photo fails: the others load at once, not after the longest wait.
      await context.route(firstCard, (route) => route.fulfill({ status: 503, body: '' }));
      requested.length = 0;
      const again = await open(context, feedPath);
      await expect.poll(() => again.getByTestId('product-card').count(), { timeout: 30_000 }).toBe(PRODUCTS);
      const failedAt = Date.now();
      await expect.poll(() => requested.includes(posted[1]!.image_cards[0]!), { timeout: 10_000 }).toBe(true);
      expect(Date.now() - failedAt).toBeLessThan(2500);
      await again.close();
    } finally {
      await context.close();
    }
  });

  it('on a laptop: three columns, sizes = the slot, the first row eager, a stable page', async () => {
    const feed = await open(laptop, feedPath);
    const cards = feed.getByTestId('product-card');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(PRODUCTS);
    const loading = await cards.locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('loading')));
    expect(loading).toEqual(['eager', 'eager', 'eager', ...Array(PRODUCTS - 3).fill('lazy')]);
    const { sizes, shown } = await sizesAgainstLayout(feed, '[data-testid="product-card"] img');
    expect(Math.abs(sizes - shown), `sizes says ${sizes}px, the photo is ${shown}px wide`).toBeLessThanOrEqual(2);
    await feed.waitForTimeout(1500);
    expect(await cls(feed)).toBeLessThanOrEqual(0.1);
    await feed.close();
  });

  it('on the product page: the carousel offers the card and the original, sizes = its column', async () => {
    for (const context of [phone, laptop]) {
      const page = await open(context, `/dashboard/buyer/${posted[0]!.product_id}`);
      const slide = page.getByTestId('carousel-image');
      await slide.waitFor({ timeout: 20_000 });
      expect(await slide.getAttribute('srcset')).toBe(`${posted[0]!.image_cards[0]} 640w, ${posted[0]!.images[0]} 2000w`);
      const { sizes, shown } = await sizesAgainstLayout(page, '[data-testid="carousel-image"]');
      expect(Math.abs(sizes - shown), `sizes says ${sizes}px, the photo is ${shown}px wide`).toBeLessThanOrEqual(2);
      await page.waitForTimeout(1000);
      expect(await cls(page)).toBeLessThanOrEqual(0.1);
      await page.close();
    }
  });
});

describe('the buyer pages in Yoruba (issue 13)', () => {
  it('reads the feed, a product, the cart, My requests and the details in Yoruba: no missing message, no sideways scroll', async () => {
    for (const [context, width] of [
      [phone, 360],
      [laptop, 1280],
    ] as const) {
      const feed = await open(context, feedPath, 'yo');
      await feed.getByRole('heading', { level: 1, name: 'Àwọn ọjà' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => feed.getByTestId('product-card').count(), { timeout: 30_000 }).toBe(PRODUCTS);
      await feed.getByText('Ó wà: òkìtì 12').first().waitFor();
      await feed
        .getByText(/₦2,\d00\.00 fún òkìtì kan/)
        .first()
        .waitFor();
      if (width === 360) await feed.getByRole('button', { name: 'Àṣàyàn (1)' }).click(); // the folded filters open
      await feed.getByText('iṣu', { exact: true }).first().waitFor(); // the yam chip by its Yoruba name
      await expectNoSidewaysScroll(feed);
      await screenshot(feed, `buyer-i18n-yo-feed-${width}`);
      expect(await missingBuyerKeys(feed)).toEqual([]);
      await feed.close();

      const product = await open(context, `/dashboard/buyer/${posted[0]!.product_id}`, 'yo');
      await product.getByRole('button', { name: 'Fi sínú apẹ̀rẹ̀' }).waitFor({ timeout: 20_000 });
      await product.getByText(`Irú: ${YORUBA_TUBER[posted[0]!.tuber_type]}`).waitFor();
      await product.getByRole('heading', { name: 'Èròjà aṣaralóore' }).waitFor();
      await expectNoSidewaysScroll(product);
      await screenshot(product, `buyer-i18n-yo-product-${width}`);
      await product.getByRole('button', { name: 'Fi sínú apẹ̀rẹ̀' }).click();
      await product.getByText('ó ti wọ inú apẹ̀rẹ̀').first().waitFor();
      await product.getByRole('button', { name: 'Kàn sí àgbẹ̀' }).click();
      await product.getByRole('heading', { name: `Kàn sí ${BUSINESS}` }).waitFor({ timeout: 20_000 });
      await expectNoSidewaysScroll(product);
      await screenshot(product, `buyer-i18n-yo-contact-${width}`);
      expect(await missingBuyerKeys(product)).toEqual([]);
      await product.close();

      const cart = await open(context, '/dashboard/cart', 'yo');
      await cart.getByRole('heading', { level: 1, name: 'Apẹ̀rẹ̀' }).waitFor({ timeout: 20_000 });
      await cart.getByRole('button', { name: 'Fi ìbéèrè ránṣẹ́' }).waitFor();
      await cart.getByRole('radio', { name: 'Ẹ fi ránṣẹ́ sí mi' }).check();
      await cart.getByRole('button', { name: 'Fi ìbéèrè ránṣẹ́' }).click();
      await cart.getByText('Kọ àdírẹ́sì tí wọ́n ó mú un wá.').waitFor();
      await expectNoSidewaysScroll(cart);
      await screenshot(cart, `buyer-i18n-yo-cart-${width}`);
      expect(await missingBuyerKeys(cart)).toEqual([]);
      // Leave the next round an empty cart, as it found it.
      await cart.getByRole('button', { name: 'Yọ ọ́ kúrò' }).click();
      await cart.getByText('Kò sí nǹkan kan nínú apẹ̀rẹ̀').waitFor();
      await cart.close();

      const requests = await open(context, '/dashboard/requests', 'yo');
      await requests.getByText('O kò tíì fi ìbéèrè kankan ránṣẹ́').waitFor({ timeout: 20_000 });
      await expectNoSidewaysScroll(requests);
      await screenshot(requests, `buyer-i18n-yo-requests-${width}`);
      expect(await missingBuyerKeys(requests)).toEqual([]);
      await requests.close();

      const details = await open(context, '/dashboard/buyerprofile', 'yo');
      await details.getByRole('heading', { level: 1, name: 'Àlàyé olùrà' }).waitFor({ timeout: 20_000 });
      await details.getByRole('button', { name: 'Ṣàtúnṣe àkọsílẹ̀' }).click();
      await details.getByLabel('Orúkọ àkọ́kọ́').fill('');
      await details.getByRole('button', { name: 'Fi pamọ́' }).click();
      await details.getByText('Orúkọ àkọ́kọ́ kò gbọdọ̀ ṣófo.').waitFor();
      await expectNoSidewaysScroll(details);
      await screenshot(details, `buyer-i18n-yo-details-${width}`);
      expect(await missingBuyerKeys(details)).toEqual([]);
      await details.close();
    }
  });

  it('follows the language switch of the header at once, without a reload', async () => {
    const feed = await open(laptop, feedPath);
    await feed.getByRole('heading', { level: 1, name: 'Products' }).waitFor({ timeout: 30_000 });
    await feed.getByText('Available: 12 heaps').first().waitFor();
    const loads: string[] = [];
    feed.on('framenavigated', (frame) => loads.push(frame.url()));
    await feed.getByLabel('Language').selectOption('ha');
    await feed.getByRole('heading', { level: 1, name: 'Kayayyaki' }).waitFor({ timeout: 10_000 });
    await feed.getByText('Akwai: tsibi 12').first().waitFor();
    await feed
      .getByText(/₦2,\d00\.00 kowane tsibi/)
      .first()
      .waitFor();
    expect(loads).toEqual([]);
    expect(await missingBuyerKeys(feed)).toEqual([]);
    await feed.getByLabel(/Harshe|Language/).selectOption('en');
    await feed.getByRole('heading', { level: 1, name: 'Products' }).waitFor({ timeout: 10_000 });
    await feed.close();
  });

  it.each(['pcm', 'ha', 'ig'])('renders the feed and a product in %s without a missing message or sideways scroll', async (locale) => {
    for (const path of [feedPath, `/dashboard/buyer/${posted[0]!.product_id}`]) {
      const page = await open(phone, path, locale);
      await page.locator('[data-testid="product-card"], [data-testid="product-detail"]').first().waitFor({ timeout: 30_000 });
      // The language's messages arrive as their own chunk: the page then no longer shows the English words.
      await expect.poll(() => page.evaluate(() => document.body.innerText.includes('Available:')), { timeout: 10_000 }).toBe(false);
      await expectNoSidewaysScroll(page);
      expect(await missingBuyerKeys(page)).toEqual([]);
      await page.close();
    }
  });

  it('had no uncaught errors on its pages', () => {
    // A file the gateway could not serve for a moment (another process restarting) is not this page's error.
    expect(pageErrors.flat().filter((error) => !/Failed to load resource|answered 50[234]/.test(error))).toEqual([]);
  });
});
