// Accessibility (issue 13): every page of the spec, as a guest, a buyer and a farmer, and issue 26's screens (the
// open report form, the phone code step, the moderation desk as a moderator), at 360 px and 1280 px wide, checked
// with axe-core in headless Chromium against the real servers. A page passes with zero serious or critical
// violations; every violation (moderate and minor too) is written to test-artifacts/a11y-violations.json with the
// page, width, rule and elements, and each page's screenshot to test-artifacts/a11y-<page>-<width>.png.
//
// axe-core comes from npm (node_modules/axe-core/axe.min.js) and is evaluated in the page through the
// DevTools protocol: an injected <script> would be refused by the gateway's Content-Security-Policy, which
// the other browser tests keep on.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api, eventually } from '../support/api.js';
import { accountWithProfile, uploadPhotos } from './support/market.js';
import { artifactsDir, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { signInThroughShell } from './support/signIn.js';
import { clearFromDesk, openReportForm, ownPhoneNumber, productOnTheDesk, sendPhoneCode } from './support/trust.js';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [360, 1280] as const;
const BLOCKING = new Set(['serious', 'critical']);

type Who = 'guest' | 'buyer' | 'farmer' | 'moderator';
interface Screen {
  name: string;
  who: Who;
  path: () => string;
  /** Something that is on the page once it has loaded (its data included). */
  ready: (page: Page) => ReturnType<Page['locator']>;
  /** Done once before the page is checked (e.g. a line in the cart, so the cart is not the empty one). */
  prepare?: (page: Page) => Promise<void>;
  /** Done on the loaded page, to check a state of it (a form opened, a code sent). */
  open?: (page: Page) => Promise<void>;
  /**
   * The state opened cannot be made again at once (a phone gets a code a minute): opened once in a tab of its own,
   * kept for the next width.
   */
  keep?: boolean;
}

let productId = '';
const heading = (page: Page) => page.getByRole('heading').first();
const screens: Screen[] = [
  { name: 'landing', who: 'guest', path: () => '/', ready: (p) => p.getByRole('heading', { level: 1 }) },
  {
    name: 'login',
    who: 'guest',
    path: () => '/login',
    ready: (p) =>
      p
        .locator('#username')
        .or(p.getByRole('button', { name: 'Login' }))
        .first(),
  },
  { name: 'onboarding', who: 'guest', path: () => '/onboarding', ready: heading },
  { name: 'signup-buyer', who: 'guest', path: () => '/signupbuyer', ready: (p) => p.locator('form') },
  { name: 'signup-farmer', who: 'guest', path: () => '/signupfarmer', ready: (p) => p.locator('form') },
  { name: 'forgot-password', who: 'guest', path: () => '/forgot-password', ready: (p) => p.locator('form') },
  { name: 'reset-password', who: 'guest', path: () => '/reset-password', ready: heading },
  { name: 'prices', who: 'guest', path: () => '/prices/yam', ready: (p) => p.getByTestId('price-chart').or(p.getByTestId('prices-empty')).first() },
  { name: 'not-found', who: 'guest', path: () => '/no-such-page', ready: heading },
  { name: 'buyer-feed', who: 'buyer', path: () => '/dashboard/buyer', ready: (p) => p.getByTestId('product-card').first() },
  { name: 'product', who: 'buyer', path: () => `/dashboard/buyer/${productId}`, ready: (p) => p.getByTestId('farmer-trust').getByRole('heading').first() },
  { name: 'farm', who: 'buyer', path: () => `/dashboard/buyer?farmer=${farmer.id}`, ready: (p) => p.getByTestId('farmer-trust').getByRole('heading').first() },
  {
    name: 'cart',
    who: 'buyer',
    path: () => '/dashboard/cart',
    ready: (p) => p.getByRole('heading', { level: 1 }),
    prepare: async (page) => {
      await page.goto(`${publicUrl}/dashboard/buyer/${productId}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('status').filter({ hasText: /cart/i }).first().waitFor();
    },
  },
  { name: 'requests', who: 'buyer', path: () => '/dashboard/requests', ready: heading },
  { name: 'buyer-profile', who: 'buyer', path: () => '/dashboard/buyerprofile', ready: (p) => p.locator('input').first() },
  {
    name: 'report-form',
    who: 'buyer',
    path: () => `/dashboard/buyer/${productId}`,
    ready: (p) => p.getByTestId('report-open'),
    open: openReportForm,
  },
  {
    name: 'phone-code',
    who: 'buyer',
    path: () => '/dashboard/buyerprofile',
    ready: (p) => p.getByTestId('phone-check'),
    open: sendPhoneCode,
    keep: true,
  },
  { name: 'farmer-add-product', who: 'farmer', path: () => '/dashboard/farmer', ready: (p) => p.locator('form') },
  { name: 'farmer-products', who: 'farmer', path: () => '/dashboard/productLists', ready: heading },
  { name: 'farmer-edit-product', who: 'farmer', path: () => `/dashboard/productLists/${productId}/edit`, ready: (p) => p.locator('form') },
  { name: 'farmer-inbox', who: 'farmer', path: () => '/dashboard/inbox', ready: heading },
  { name: 'farmer-insights', who: 'farmer', path: () => '/dashboard/insights', ready: heading },
  { name: 'farmer-profile', who: 'farmer', path: () => '/dashboard/farmerprofile', ready: (p) => p.locator('input').first() },
  { name: 'moderation-queue', who: 'moderator', path: () => '/dashboard/moderation', ready: (p) => p.getByTestId('queue-item').first() },
  {
    name: 'moderation-target',
    who: 'moderator',
    path: () => `/dashboard/moderation?target=product:${productId}`,
    ready: (p) => p.getByTestId('act-form'),
  },
  {
    name: 'moderation-audit',
    who: 'moderator',
    path: () => '/dashboard/moderation?tab=audit',
    ready: (p) => p.getByTestId('audit-entry').first(),
  },
];

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}
interface Finding {
  page: string;
  path: string;
  who: Who;
  width: number;
  rule: string;
  impact: string | null;
  help: string;
  elements: { target: string; html: string; fix?: string }[];
}

let browser: Browser;
let buyer: TestAccount;
let farmer: TestAccount;
let moderator: TestAccount;
const contexts = new Map<Who, BrowserContext>();
const pages = new Map<Who, Page>();
/** The tabs of the screens that keep their state, by screen name. */
const kept = new Map<string, Page>();
const findings: Finding[] = [];
const prepared = new Set<string>();

beforeAll(async () => {
  [buyer, farmer, moderator] = await Promise.all([
    accountWithProfile({ role: 'buyer' }),
    accountWithProfile({ role: 'farmer', businessName: 'Axe Farms', location: 'Ibadan', tuber: ['yam'] }),
    accountWithProfile({ role: 'buyer', moderator: true }),
  ]);
  await ownPhoneNumber(buyer);
  const image_ids = await uploadPhotos(farmer, 2, 60, 'a11y');
  // The catalog learns of the new profile by event: ask every 2 s (each try counts against the farmer's
  // 60 posts per 10 minutes), not postProduct's every 200 ms.
  const product = {
    product_name: `Accessible white yam ${Math.random().toString(36).slice(2, 7)}`,
    description: 'Firm white yam, dug and washed this week near Ibadan.',
    tuber_type: 'yam',
    cultural: 'Pounded yam for the family table.',
    unit: 'kg',
    price: 1800,
    quantity: 50,
    image_ids,
  };
  for (let attempt = 0; !productId; attempt++) {
    const posted = await api('POST', '/api/catalog/products', { token: farmer.accessToken, json: product });
    if (posted.status === 201) productId = posted.body.product_id as string;
    else if (posted.status !== 409 || attempt > 40)
      throw new Error(`posting the product answered ${posted.status}: ${JSON.stringify(posted.body)}`);
    else await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  // A request from the buyer, so the buyer's requests and the farmer's inbox show one (not their empty state).
  const request = {
    request_id: randomUUID(),
    farmer_id: farmer.id,
    lines: [{ product_id: productId, quantity: 2, price: 1800, unit: 'kg' }],
    fulfilment: 'pickup',
    preferred_date: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
    phone: '0803 123 4567',
  };
  const sent = await eventually(
    () => api('POST', '/api/orders/requests', { token: buyer.accessToken, json: request }),
    (answer) => ![409, 502, 503].includes(answer.status),
    60_000,
  );
  if (sent.status !== 201) throw new Error(`sending the request answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  // Reports of the product, so the desk's queue, target and audit log show one (not their empty state).
  await productOnTheDesk(buyer, moderator, productId);
  browser = await launchBrowser();
  for (const who of ['guest', 'buyer', 'farmer', 'moderator'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.set(who, context);
    const account = who === 'buyer' ? buyer : who === 'farmer' ? farmer : who === 'moderator' ? moderator : undefined;
    pages.set(who, account ? await signInThroughShell(context, account) : await context.newPage());
  }
}, 240_000);

afterAll(async () => {
  fs.mkdirSync(artifactsDir, { recursive: true });
  fs.writeFileSync(path.join(artifactsDir, 'a11y-violations.json'), JSON.stringify(findings, null, 2));
  await browser?.close();
  await clearFromDesk(moderator, productId);
  await Promise.all([buyer, farmer, moderator].filter(Boolean).map((account) => deleteAccount(account.id).catch(() => undefined)));
});

async function audit(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, helpUrl, nodes }) => ({
      id,
      impact: impact ?? null,
      help,
      helpUrl,
      nodes: nodes.map(({ target, html, failureSummary }) => ({ target, html, failureSummary })),
    }));
  });
}

describe('accessibility (axe-core): no serious or critical violation', () => {
  for (const screen of screens) {
    for (const width of WIDTHS) {
      it(`${screen.name} (${screen.who}) at ${width} px`, async () => {
        const again = kept.get(screen.name);
        const page = again ?? (screen.keep ? await contexts.get(screen.who)!.newPage() : pages.get(screen.who)!);
        // In front: a tab behind (the kept one of the same person, or this one) gets no animation frame, and its timers slow down.
        await page.bringToFront();
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        if (screen.prepare && !prepared.has(screen.name)) {
          await screen.prepare(page);
          prepared.add(screen.name);
        }
        if (!again) {
          await page.goto(`${publicUrl}${screen.path()}`);
          await screen.ready(page).waitFor({ timeout: 30_000 });
          await screen.open?.(page);
          if (screen.keep) kept.set(screen.name, page);
        }
        // The remote's chunks, the data and the fonts have landed; toasts of the load are in the DOM.
        await page.waitForLoadState('networkidle').catch(() => undefined);
        const violations = await audit(page);
        // A retry replaces what the failed attempt recorded.
        for (let i = findings.length - 1; i >= 0; i--)
          if (findings[i]!.page === screen.name && findings[i]!.width === width) findings.splice(i, 1);
        await screenshot(page, `a11y-${screen.name}-${width}`);
        for (const violation of violations) {
          findings.push({
            page: screen.name,
            path: new URL(page.url()).pathname,
            who: screen.who,
            width,
            rule: violation.id,
            impact: violation.impact,
            help: violation.help,
            elements: violation.nodes.map((node) => ({
              target: node.target.join(' '),
              html: node.html.slice(0, 200),
              fix: node.failureSummary,
            })),
          });
        }
        const blocking = violations
          .filter((violation) => BLOCKING.has(violation.impact ?? ''))
          .map(
            (violation) =>
              `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
        expect(blocking, `${screen.path()} at ${width} px`).toEqual([]);
        // Reflow (WCAG 1.4.10): nothing scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').toBeLessThanOrEqual(width);
      }, 60_000);
    }
  }
});

describe('toasts do not hide the page (issue 13)', () => {
  for (const width of WIDTHS) {
    const phone = width === 360;
    const height = phone ? 740 : 900;
    it(`a burst of toasts at ${width} px shows ${phone ? 'one at a time (the oldest first), at the top' : '3 at most, bottom right'}, clear of the heading and the button pressed`, async () => {
      const page = pages.get('buyer')!;
      await page.bringToFront(); // the phone code's kept tab was in front
      await page.setViewportSize({ width, height });
      await page.goto(`${publicUrl}/dashboard/buyer/${productId}`);
      const add = page.getByRole('button', { name: 'Add to cart' });
      await add.click();
      await page.getByRole('status').filter({ hasText: /cart/i }).first().waitFor();
      for (let i = 0; i < 4; i++) await add.click();
      const visible = page.locator('[aria-live="polite"] > [role="status"]:visible, [aria-live="polite"] > [role="alert"]:visible');
      await expect.poll(() => visible.count()).toBe(phone ? 1 : 3);
      await page.waitForTimeout(300); // the entry animation (0.18 s) has ended
      await screenshot(page, `a11y-toasts-${width}`);
      const boxes = await visible.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as DOMRect));
      const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
      const pressed = (await add.boundingBox())!;
      const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      const header = (await page.locator('header').first().boundingBox())!;
      for (const box of boxes) {
        // Issue 25: never over the header (the Menu button, the bell, the cart's count are there).
        expect(overlaps(box, header), 'a toast covers the header').toBe(false);
        if (phone) expect(box.bottom, 'on a phone the toast sits at the top').toBeLessThan(height / 4);
        else expect(box.top, 'on a wide screen toasts sit in the lower half').toBeGreaterThan(height / 2);
        expect(box.right, 'no sideways scroll').toBeLessThanOrEqual(width);
        expect(overlaps(box, heading), 'a toast covers the heading').toBe(false);
        expect(overlaps(box, pressed), 'a toast covers the button just pressed').toBe(false);
      }
    }, 60_000);
  }
});
