// Production CSS comes as files (docs/adr/0047-css-files.md): the shell's one stylesheet linked from the
// page's <head>, a remote page's own file loaded with its chunk. This checks in headless Chromium against the
// real servers that the pages are styled from those files, in the right order (@tuber/ui's global.css
// once, first), with no <style> element injected at run time, and keeps screenshots at 360 px and 1280 px
// (test-artifacts/css-<page>-<width>.png) to look at.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { accountWithProfile, postProduct } from './support/market.js';
import { launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { signInThroughShell } from './support/signIn.js';

const WIDTHS = [360, 1280] as const;

interface SheetReport {
  /** Every stylesheet of the document, in order: its address (null for a <style> element). */
  sheets: (string | null)[];
  /** How many sheets declare the design tokens (@tuber/ui's global.css). */
  globalSheets: number;
  /** <style> elements in the document. */
  styleElements: number;
}

/** What styles the page and where from. */
function sheetReport(page: Page): Promise<SheetReport> {
  return page.evaluate(() => {
    const sheets = [...document.styleSheets];
    const declaresTokens = (sheet: CSSStyleSheet) =>
      [...sheet.cssRules].some(
        (rule) => rule instanceof CSSStyleRule && rule.selectorText === ':root' && rule.style.getPropertyValue('--tm-green-900') !== '',
      );
    return {
      sheets: sheets.map((sheet) => sheet.href),
      globalSheets: sheets.filter(declaresTokens).length,
      styleElements: document.querySelectorAll('style').length,
    };
  });
}

/** Whether a rule of the page's stylesheets names one of the element's classes (its CSS module's CSS is applied). */
function hasRuleFor(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const classes = [...element.classList];
      return [...document.styleSheets].some((sheet) =>
        [...sheet.cssRules].some((rule) => rule instanceof CSSStyleRule && classes.some((name) => rule.selectorText.includes(`.${name}`))),
      );
    });
}

const hashedCss = (folder: string) => new RegExp(`^${publicUrl}${folder}[\\w-]+\\.[0-9a-f]{8}\\.css$`);

let browser: Browser;
let buyer: TestAccount;
let farmer: TestAccount;
let productId = '';
let buyerContext: BrowserContext;
let buyerPage: Page;

beforeAll(async () => {
  [browser, buyer, farmer] = await Promise.all([
    launchBrowser(),
    accountWithProfile({ role: 'buyer' }),
    accountWithProfile({ role: 'farmer', businessName: 'Style Farms', location: 'Ibadan', tuber: ['yam'] }),
  ]);
  // A product with photos, so the feed shows its cards (not only its empty state).
  const run = Math.random().toString(36).slice(2, 7);
  ({ product_id: productId } = await postProduct(farmer, {
    product_name: `Styled water yam ${run}`,
    unit: 'kg',
    price: 1500,
    quantity: 20,
  }));
  buyerContext = await browser.newContext();
  buyerPage = await signInThroughShell(buyerContext, buyer, /^\/dashboard\/buyer/);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([buyer, farmer].filter(Boolean).map((account) => deleteAccount(account.id).catch(() => undefined)));
});

describe('CSS as files', () => {
  for (const width of WIDTHS) {
    it(`styles the guest's / from the shell's file and the landing page's (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(`${publicUrl}/`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        const report = await sheetReport(page);
        expect(report.styleElements).toBe(0);
        expect(report.sheets[0]).toMatch(hashedCss('/'));
        expect(report.sheets.some((href) => hashedCss('/mf/landing/').test(href ?? ''))).toBe(true);
        expect(report.globalSheets).toBe(1);
        // The tokens are applied (the page's background), and the landing page's own classes have rules.
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(251, 252, 248)');
        expect(await hasRuleFor(page, 'h1[class]')).toBe(true);
        await screenshot(page, `css-landing-${width}`);
      } finally {
        await context.close();
      }
    });
  }

  for (const width of WIDTHS) {
    it(`styles a buyer's feed from the buyer's file, after the shell's (${width} px)`, async () => {
      await buyerPage.setViewportSize({ width, height: 800 });
      await buyerPage.goto(`${publicUrl}/dashboard/buyer`);
      const card = buyerPage.getByTestId('product-card').first();
      await card.waitFor({ timeout: 20_000 });
      const report = await sheetReport(buyerPage);
      expect(report.styleElements).toBe(0);
      expect(report.sheets[0]).toMatch(hashedCss('/'));
      const feedSheet = report.sheets.findIndex((href) => /\/mf\/buyer\/__federation_expose_FeedPage\.[0-9a-f]{8}\.css$/.test(href ?? ''));
      expect(feedSheet).toBeGreaterThan(0);
      // The buyer's fallback copy of @tuber/ui (global.css included) stays unloaded: the shell provides it.
      expect(report.globalSheets).toBe(1);
      expect(await hasRuleFor(buyerPage, '[data-testid="product-card"]')).toBe(true);
      await screenshot(buyerPage, `css-buyer-feed-${width}`);
    });
  }

  it("loads a stylesheet the buyer's pages share once, before each page's own, in the manifest's order", async () => {
    const manifest = (await (await fetch(`${publicUrl}/mf/buyer/mf-manifest.json`)).json()) as {
      exposes: { name: string; assets: { css: { sync: string[] } } }[];
    };
    const cssOf = (expose: string) =>
      manifest.exposes.find((entry) => entry.name === expose)!.assets.css.sync.map((file) => `${publicUrl}/mf/buyer/${file}`);
    const detail = cssOf('ProductDetailPage');
    const cart = cssOf('CartPage');
    const shared = detail.filter((file) => cart.includes(file));
    // The contact dialog's stylesheet is on both pages: split out, not copied into each page's file.
    expect(shared.length).toBeGreaterThan(0);

    await buyerPage.setViewportSize({ width: 1280, height: 800 });
    await buyerPage.goto(`${publicUrl}/dashboard/buyer/${productId}`);
    await buyerPage.getByRole('heading', { level: 1 }).waitFor();
    // In the app: to the cart and back (the files are loaded by the remote's runtime, not by the first load).
    await buyerPage.getByRole('link', { name: /cart/i }).first().click();
    await buyerPage.waitForURL(/\/dashboard\/cart/);
    await buyerPage.getByRole('heading', { level: 1 }).waitFor();
    await buyerPage.goBack();
    await buyerPage.getByRole('heading', { level: 1 }).waitFor();

    const { sheets, styleElements } = await sheetReport(buyerPage);
    expect(styleElements).toBe(0);
    for (const file of new Set([...detail, ...cart]))
      expect(
        sheets.filter((href) => href === file),
        file,
      ).toHaveLength(1);
    const at = (file: string) => sheets.indexOf(file);
    expect(detail.map(at)).toEqual([...detail.map(at)].sort((a, b) => a - b));
    expect(cart.map(at)).toEqual([...cart.map(at)].sort((a, b) => a - b));
    expect(await hasRuleFor(buyerPage, 'h1[class]')).toBe(true);
  });
});
