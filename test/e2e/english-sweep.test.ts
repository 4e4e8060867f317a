// Every word in the user's language (issue 25): every page of the spec and the newer ones (issue 26's too: the open
// report form, the phone code step, the moderation desk's queue, target and audit log), at 360 px, in
// Pidgin, Yoruba, Hausa and Igbo, shows no English sentence of any catalogue (text, labels, placeholders,
// tooltips, CSS-drawn text), misses no key, and no toast covers the header; a server's refusal of a form is
// worded in the language too. Screenshots in test-artifacts/sweep-<page>-<language>.png.
//
// English is found by the catalogues themselves: a text on the page that is an English message of any front
// end's catalogue (or holds a long literal part of one) while the page's language words it differently. Product
// data and names are the seeded ones, which are no catalogue's message.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api } from '../support/api.js';
import { accountWithProfile, lagosDay, ordersKnowProduct, postProduct } from './support/market.js';
import { launchBrowser, publicUrl, repoRoot, screenshot } from './support/browser.js';
import { signInThroughShell } from './support/signIn.js';
import { waitForCatalogues } from './support/catalogues.js';
import { clearFromDesk, openReportForm, ownPhoneNumber, productOnTheDesk, sendPhoneCode } from './support/trust.js';
import { randomUUID } from 'node:crypto';

const ALL_LANGUAGES = ['pcm', 'yo', 'ha', 'ig'] as const;
type Language = (typeof ALL_LANGUAGES)[number];
/**
 * make test sweeps Pidgin only (the language closest to English, so the likeliest to keep an English sentence;
 * about 4 minutes); `SWEEP_LANGUAGES=all` (make sweep) all four, about 18 minutes.
 */
const LANGUAGES: readonly Language[] =
  process.env.SWEEP_LANGUAGES === 'all'
    ? ALL_LANGUAGES
    : (process.env.SWEEP_LANGUAGES ?? 'pcm').split(',').filter((l): l is Language => (ALL_LANGUAGES as readonly string[]).includes(l));
const REMOTES = ['shell', 'landing', 'buyer', 'farmer', 'moderation', 'ui'];

type Messages = Record<string, string>;
const read = (remote: string, language: string): Messages =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'frontends', remote, 'src/i18n', `${language}.json`), 'utf8'));

/**
 * The English a page in `language` must not show: each catalogue's English message that the language words
 * differently, as the whole text (plain messages) or its longest literal part (messages with values).
 */
function englishOf(language: Language): { whole: Set<string>; parts: string[] } {
  const whole = new Set<string>();
  const parts = new Set<string>();
  for (const remote of REMOTES) {
    const en = read(remote, 'en');
    const other = read(remote, language);
    for (const [id, message] of Object.entries(en)) {
      if (other[id] === message) continue; // the same in both (a brand, "kg")
      if (!/[a-z]{3}/i.test(message)) continue;
      if (!/[{}]/.test(message)) {
        if (message.trim().length >= 4) whole.add(message.trim());
        continue;
      }
      const literals = message
        .split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/)
        .map((part) => part.trim())
        .filter((part) => part.length >= 14 && !/[{}#]/.test(part));
      const longest = literals.sort((a, b) => b.length - a.length)[0];
      if (longest) parts.add(longest);
    }
  }
  return { whole, parts: [...parts] };
}

/** Every text a person meets on the page: visible text, labels, placeholders, tooltips, alt, CSS-drawn text. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      const parent = node.parentElement;
      if (text && parent && !parent.closest('script,style,noscript,[aria-hidden="true"]') && visible(parent)) out.push(text);
    }
    for (const element of document.querySelectorAll('[aria-label],[placeholder],[title],img[alt]')) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) out.push(value);
      }
    }
    for (const element of document.querySelectorAll('body *')) {
      for (const pseudo of ['::before', '::after']) {
        const content = getComputedStyle(element, pseudo).content;
        if (content && content !== 'none' && content !== 'normal' && /[a-z]{3}/i.test(content)) out.push(content.replace(/^"|"$/g, ''));
      }
    }
    // Whole sentences too, for messages the page splits across elements.
    for (const element of document.querySelectorAll('p, h1, h2, h3, label, button, a, li, dt, dd, legend, summary')) {
      const text = (element as HTMLElement).innerText?.replace(/\s+/g, ' ').trim();
      if (text && visible(element)) out.push(text);
    }
    return out;
  });
}

function leaks(texts: string[], english: { whole: Set<string>; parts: string[] }): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    if (english.whole.has(text)) found.add(text);
    for (const part of english.parts) if (text.includes(part)) found.add(`${part} (in "${text.slice(0, 80)}")`);
  }
  return [...found];
}


/** Opens `route` in `language`: the choice is kept in localStorage, as the header's switch keeps it. */
async function openIn(page: Page, language: Language, route: string): Promise<void> {
  if (!page.url().startsWith(publicUrl)) await page.goto(`${publicUrl}/`);
  await page.evaluate((l) => localStorage.setItem('tuber.locale', l), language);
  await page.goto(`${publicUrl}${route}`);
}

const missingKeys = (page: Page) =>
  page.evaluate(() => [...((globalThis as unknown as { __tuberMissingKeys?: Set<string> }).__tuberMissingKeys ?? [])]);

/** Whether a visible toast overlaps the header (the Menu button, the bell, the cart and the switch live there). */
const toastOverHeader = (page: Page) =>
  page.evaluate(() => {
    const header = document.querySelector('header')?.getBoundingClientRect();
    if (!header) return false;
    return [...document.querySelectorAll('[aria-live="polite"] > [role="status"], [aria-live="polite"] > [role="alert"]')]
      .map((toast) => toast.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .some((box) => box.top < header.bottom - 0.5 && box.bottom > header.top);
  });

interface Screen {
  name: string;
  who: 'guest' | 'buyer' | 'farmer' | 'moderator';
  remote: string;
  path: () => string;
  /** Done on the loaded page, to check a state of it (a form opened, a code sent). */
  open?: (page: Page) => Promise<void>;
  /**
   * The state opened cannot be made again at once (a phone gets a code a minute): opened once in a tab of its own,
   * whose language the header's switch changes for the next languages.
   */
  keep?: boolean;
}

let productId = '';
let farmerId = '';
const SCREENS: Screen[] = [
  { name: 'landing', who: 'guest', remote: 'landing', path: () => '/' },
  { name: 'onboarding', who: 'guest', remote: 'landing', path: () => '/onboarding' },
  { name: 'signup-buyer', who: 'guest', remote: 'landing', path: () => '/signupbuyer' },
  { name: 'signup-farmer', who: 'guest', remote: 'landing', path: () => '/signupfarmer' },
  { name: 'forgot-password', who: 'guest', remote: 'landing', path: () => '/forgot-password' },
  { name: 'prices', who: 'guest', remote: 'landing', path: () => '/prices/yam' },
  { name: 'feed', who: 'buyer', remote: 'buyer', path: () => '/dashboard/buyer' },
  { name: 'feed-typo', who: 'buyer', remote: 'buyer', path: () => '/dashboard/buyer?q=yamm' },
  { name: 'feed-nothing', who: 'buyer', remote: 'buyer', path: () => '/dashboard/buyer?q=zzqxv' },
  { name: 'product', who: 'buyer', remote: 'buyer', path: () => `/dashboard/buyer/${productId}` },
  { name: 'farm', who: 'buyer', remote: 'buyer', path: () => `/dashboard/buyer?farmer=${farmerId}` },
  { name: 'cart', who: 'buyer', remote: 'buyer', path: () => '/dashboard/cart' },
  { name: 'my-requests', who: 'buyer', remote: 'buyer', path: () => '/dashboard/requests' },
  { name: 'buyer-profile', who: 'buyer', remote: 'buyer', path: () => '/dashboard/buyerprofile' },
  { name: 'report-form', who: 'buyer', remote: 'buyer', path: () => `/dashboard/buyer/${productId}`, open: openReportForm },
  { name: 'phone-code', who: 'buyer', remote: 'buyer', path: () => '/dashboard/buyerprofile', open: sendPhoneCode, keep: true },
  { name: 'add-product', who: 'farmer', remote: 'farmer', path: () => '/dashboard/farmer' },
  { name: 'product-list', who: 'farmer', remote: 'farmer', path: () => '/dashboard/productLists' },
  { name: 'edit-product', who: 'farmer', remote: 'farmer', path: () => `/dashboard/productLists/${productId}/edit` },
  { name: 'inbox', who: 'farmer', remote: 'farmer', path: () => '/dashboard/inbox' },
  { name: 'insights', who: 'farmer', remote: 'farmer', path: () => '/dashboard/insights' },
  { name: 'farmer-profile', who: 'farmer', remote: 'farmer', path: () => '/dashboard/farmerprofile' },
  { name: 'moderation-queue', who: 'moderator', remote: 'moderation', path: () => '/dashboard/moderation' },
  { name: 'moderation-target', who: 'moderator', remote: 'moderation', path: () => `/dashboard/moderation?target=product:${productId}` },
  { name: 'moderation-audit', who: 'moderator', remote: 'moderation', path: () => '/dashboard/moderation?tab=audit' },
];

let browser: Browser;
let buyer: TestAccount | undefined;
let farmer: TestAccount | undefined;
let moderator: TestAccount | undefined;
const contexts: BrowserContext[] = [];
const pages = new Map<Screen['who'], Page>();
/** The tabs of the screens that keep their state, by screen name. */
const kept = new Map<string, Page>();
const found: Record<string, string[]> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  [buyer, farmer, moderator] = await Promise.all([
    accountWithProfile({ role: 'buyer' }),
    accountWithProfile({ role: 'farmer', businessName: 'Ede Farms', location: 'Oyo', tuber: ['yam'] }),
    accountWithProfile({ role: 'buyer', moderator: true }),
  ]);
  await ownPhoneNumber(buyer);
  farmerId = farmer.id;
  const product = await postProduct(farmer, { product_name: `White yam ${Math.random().toString(36).slice(2, 7)}`, unit: 'heap', unit_weight_kg: 6, price: 2000, quantity: 30 });
  productId = product.product_id;
  // One request, so the inbox, My requests and the farmer's badge have something in them.
  await ordersKnowProduct(buyer.accessToken, { farmerId, productId, price: 2000, unit: 'heap' });
  const sent = await api('POST', '/api/orders/requests', {
    token: buyer.accessToken,
    json: {
      request_id: randomUUID(),
      farmer_id: farmerId,
      lines: [{ product_id: productId, quantity: 2, price: 2000, unit: 'heap' }],
      fulfilment: 'pickup',
      preferred_date: lagosDay(2),
      phone: '08031234567',
    },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  // Reports of the product, so the desk's queue, target and audit log show one (not their empty state).
  await productOnTheDesk(buyer, moderator, productId);
  const accounts = { buyer, farmer, moderator };
  for (const who of ['guest', 'buyer', 'farmer', 'moderator'] as const) {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    contexts.push(context);
    pages.set(who, who === 'guest' ? await context.newPage() : await signInThroughShell(context, accounts[who]));
  }
}, 300_000);

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
  await browser?.close();
  await clearFromDesk(moderator, productId);
  await Promise.all([buyer, farmer, moderator].filter((a): a is TestAccount => Boolean(a)).map((a) => deleteAccount(a.id).catch(() => undefined)));
  // The whole list, for the closing note, even when a test failed on its first page.
  fs.writeFileSync(path.join(repoRoot, 'test-artifacts', 'sweep-english.json'), `${JSON.stringify(found, null, 2)}\n`);
});

describe('no English in a translated page (issue 25)', () => {
  for (const language of LANGUAGES) {
    const english = englishOf(language);
    for (const screen of SCREENS) {
      it(`${language}: ${screen.name} at 360 px`, async () => {
        const again = kept.get(screen.name);
        const page = again ?? (screen.keep ? await pages.get(screen.who)!.context().newPage() : pages.get(screen.who)!);
        // In front: a tab behind (the kept one of the same person, or this one) gets no animation frame, and its timers slow down.
        await page.bringToFront();
        if (!again) await openIn(page, language, screen.path());
        else {
          const select = page.getByTestId('language-switch');
          if ((await select.inputValue()) !== language) await select.selectOption(language);
        }
        await page.locator('main').first().waitFor({ timeout: 30_000 });
        await waitForCatalogues(page, language, ['shell', 'ui', screen.remote]);
        if (!again) {
          await screen.open?.(page);
          if (screen.keep) kept.set(screen.name, page);
        }
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(300);
        const leaked = leaks(await pageTexts(page), english);
        found[`${language}:${screen.name}`] = leaked;
        await screenshot(page, `sweep-${screen.name}-${language}`);
        expect(await missingKeys(page), 'keys missing').toEqual([]);
        expect(leaked, `English on ${screen.name} in ${language}`).toEqual([]);
        expect(await toastOverHeader(page), 'a toast over the header').toBe(false);
        // And a longer word does not push the page sideways (the Pidgin header once made it 396 px wide).
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'sideways scroll').toBeLessThanOrEqual(0);
      }, 60_000);
    }

    it(`${language}: a server's refusal of the sign-up form (a phone number that is not Nigerian) is in ${language}`, async () => {
      const page = pages.get('guest')!;
      await openIn(page, language, '/signupbuyer');
      await waitForCatalogues(page, language, ['shell', 'ui', 'landing']);
      const fill = (name: string, value: string) => page.locator(`input[name="${name}"]`).fill(value);
      await fill('firstname', 'Ada');
      await fill('lastname', 'Obi');
      await fill('email', `sweep-${randomUUID().slice(0, 8)}@example.com`);
      await fill('phone', '+44 20 7946 0958');
      await fill('password', 'yam-harvest-2026');
      await fill('confirm_password', 'yam-harvest-2026');
      await page.locator('form button[type="submit"]').click();
      const ui = read('ui', language);
      const toast = page.locator('[aria-live="polite"] > [role="alert"]').filter({ hasText: ui['problem.phone_invalid']! });
      await toast.first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(250);
      await screenshot(page, `sweep-signup-refused-${language}`);
      const leaked = leaks(await pageTexts(page), english);
      found[`${language}:signup-refused`] = leaked;
      expect(leaked, `English after the refusal in ${language}`).toEqual([]);
      expect(await page.locator('body').innerText()).not.toContain('Enter a Nigerian phone number, like 0803');
      expect(await toastOverHeader(page), 'a toast over the header').toBe(false);
    }, 60_000);
  }
});
