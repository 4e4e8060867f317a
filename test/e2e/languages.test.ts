// Languages (issue 13, docs/adr/0041-i18n.md): in each of Pidgin, Yoruba, Hausa and Igbo the header's switch
// turns the landing page into that language with no key missing, the choice survives a reload (and sets
// <html lang>), and a 360 px phone still does not scroll sideways. The buyer's feed and product page and
// the farmer's Add Product page are checked the same way when their remotes have catalogues, and so are issue 26's
// screens: the open report form, the phone code step, and the moderation desk's queue, target and audit log.
//
// The facade records every key a page asked for that its language lacks in
// window.__tuberMissingKeys ("<remote>:<locale>:<id>"), and each catalogue whose messages for a language
// have arrived in window.__tuberLoadedCatalogues ("<remote>:<locale>"): a page counts as rendered in a
// language once its catalogues for it are loaded (before that it shows English, which proves nothing).
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api } from '../support/api.js';
import { accountWithProfile, uploadPhotos } from './support/market.js';
import { artifactsDir, launchBrowser, publicUrl, repoRoot, screenshot } from './support/browser.js';
import { signInThroughShell } from './support/signIn.js';
import { waitForCatalogues } from './support/catalogues.js';
import { clearFromDesk, openReportForm, ownPhoneNumber, productOnTheDesk, sendPhoneCode } from './support/trust.js';

const LANGUAGES = ['pcm', 'yo', 'ha', 'ig'] as const;
type Language = (typeof LANGUAGES)[number];
const ENGLISH_HEADLINE = 'Fresh from Earth, available within your reach';

const catalogueOf = (remote: string) =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'frontends', remote, 'src/i18n', 'en.json'), 'utf8'));
const hasCatalogue = (remote: string) => fs.existsSync(path.join(repoRoot, 'frontends', remote, 'src/i18n', 'en.json'));
const landingMessages = (language: Language) =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'frontends/landing/src/i18n', `${language}.json`), 'utf8')) as Record<string, string>;

type Who = 'buyer' | 'farmer' | 'moderator';
interface Screen {
  name: string;
  who: Who;
  remote: string;
  path: () => string;
  ready: (page: Page) => ReturnType<Page['locator']>;
  /** Done on the loaded page, to check a state of it (a form opened, a code sent). */
  open?: (page: Page) => Promise<void>;
  /**
   * The state opened cannot be made again at once (a phone gets a code a minute): opened once in a tab of its own,
   * kept for the next languages (the header's switch changes its language).
   */
  keep?: boolean;
}

let productId = '';
const remotePages: Screen[] = (
  [
    {
      name: 'buyer-feed',
      who: 'buyer',
      remote: 'buyer',
      path: () => '/dashboard/buyer',
      ready: (p) => p.getByTestId('product-card').first(),
    },
    {
      name: 'product',
      who: 'buyer',
      remote: 'buyer',
      path: () => `/dashboard/buyer/${productId}`,
      ready: (p) => p.getByRole('heading', { level: 1 }),
    },
    {
      name: 'report-form',
      who: 'buyer',
      remote: 'buyer',
      path: () => `/dashboard/buyer/${productId}`,
      ready: (p) => p.getByTestId('report-open'),
      open: openReportForm,
    },
    {
      name: 'phone-code',
      who: 'buyer',
      remote: 'buyer',
      path: () => '/dashboard/buyerprofile',
      ready: (p) => p.getByTestId('phone-check'),
      open: sendPhoneCode,
      keep: true,
    },
    { name: 'farmer-add-product', who: 'farmer', remote: 'farmer', path: () => '/dashboard/farmer', ready: (p) => p.locator('form') },
    // The public price page (issue 27), open to signed-in people too.
    {
      name: 'prices',
      who: 'buyer',
      remote: 'landing',
      path: () => '/prices/yam',
      ready: (p) => p.getByTestId('price-chart').or(p.getByTestId('prices-empty')).first(),
    },
    {
      name: 'moderation-queue',
      who: 'moderator',
      remote: 'moderation',
      path: () => '/dashboard/moderation',
      ready: (p) => p.getByTestId('queue-item').first(),
    },
    {
      name: 'moderation-target',
      who: 'moderator',
      remote: 'moderation',
      path: () => `/dashboard/moderation?target=product:${productId}`,
      ready: (p) => p.getByTestId('act-form'),
    },
    {
      name: 'moderation-audit',
      who: 'moderator',
      remote: 'moderation',
      path: () => '/dashboard/moderation?tab=audit',
      ready: (p) => p.getByTestId('audit-entry').first(),
    },
  ] satisfies Screen[]
).filter((screen) => hasCatalogue(screen.remote) && Object.keys(catalogueOf(screen.remote)).length > 0);

let browser: Browser;
let buyer: TestAccount | undefined;
let farmer: TestAccount | undefined;
let moderator: TestAccount | undefined;
const contexts: BrowserContext[] = [];
const pages = new Map<Who, Page>();
/** The tabs of the screens that keep their state, by screen name. */
const kept = new Map<string, Page>();

async function newPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 900 } });
  contexts.push(context);
  return { context, page: await context.newPage() };
}

/** What the page recorded: missing keys, loaded catalogues, <html lang>, the switch's value, sideways overflow. */
async function i18nState(page: Page) {
  return page.evaluate(() => {
    const g = globalThis as unknown as { __tuberMissingKeys?: Set<string>; __tuberLoadedCatalogues?: Set<string> };
    const select = document.querySelector<HTMLSelectElement>('[data-testid="language-switch"]');
    return {
      missing: [...(g.__tuberMissingKeys ?? [])],
      loaded: [...(g.__tuberLoadedCatalogues ?? [])],
      lang: document.documentElement.lang,
      stored: localStorage.getItem('tuber.locale'),
      switchValue: select?.value ?? null,
      overflowX: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      // What sticks out on the right, to name it when a language makes a page scroll sideways.
      wide: [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .slice(-4)
        .map((element) => {
          const box = element.getBoundingClientRect();
          return `${element.tagName.toLowerCase()} ${Math.round(box.left)}–${Math.round(box.right)}: "${(element.textContent ?? '').trim().slice(0, 40)}"`;
        }),
      header: [...document.querySelectorAll<HTMLElement>('header a, header button, header nav > div')].map(
        (element) => `${(element.textContent ?? '').trim().slice(0, 14)}:${Math.round(element.getBoundingClientRect().width)}`,
      ),
    };
  });
}


beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
  await browser?.close();
  await clearFromDesk(moderator, productId);
  await Promise.all(
    [buyer, farmer, moderator].filter((a): a is TestAccount => Boolean(a)).map((account) => deleteAccount(account.id).catch(() => undefined)),
  );
});

describe('languages', () => {
  it('starts in English: the landing page shows the spec copy, <html lang="en">, nothing missing', async () => {
    const { page } = await newPage(1280);
    await page.goto(`${publicUrl}/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 20_000 }).toBe(ENGLISH_HEADLINE);
    const state = await i18nState(page);
    expect(state.lang).toBe('en');
    expect(state.switchValue).toBe('en');
    expect(state.missing).toEqual([]);
    // The switch names every language in itself, and has an accessible name.
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Language' }).locator('option').allTextContents())
      .toEqual(['English', 'Pidgin', 'Yorùbá', 'Hausa', 'Igbo']);
  });

  for (const language of LANGUAGES) {
    it(`${language}: the switch renders the landing page with no missing key, and it persists across a reload`, async () => {
      const expected = landingMessages(language);
      for (const width of [360, 1280]) {
        const { page } = await newPage(width);
        await page.goto(`${publicUrl}/`);
        await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 20_000 });
        await page.getByTestId('language-switch').selectOption(language);
        await waitForCatalogues(page, language, ['shell', 'landing']);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(expected['landing.hero.title']);
        let state = await i18nState(page);
        expect(state.missing, `keys missing on the landing page in ${language}`).toEqual([]);
        expect(state.lang).toBe(language);
        expect(state.stored).toBe(language);
        expect(
          state.overflowX,
          `the landing page in ${language} scrolls sideways at ${width} px: ${state.wide.join(' | ')}`,
        ).toBeLessThanOrEqual(0);
        await screenshot(page, `languages-landing-${language}-${width}`);

        await page.reload();
        await waitForCatalogues(page, language, ['shell', 'landing']);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(expected['landing.hero.title']);
        state = await i18nState(page);
        expect(state.switchValue, 'the switch after a reload').toBe(language);
        expect(state.lang).toBe(language);
        expect(state.missing).toEqual([]);
        // The header's own copy is in the language too (guest: the two account buttons).
        const shell = JSON.parse(fs.readFileSync(path.join(repoRoot, 'frontends/shell/src/i18n', `${language}.json`), 'utf8'));
        await expect.poll(() => page.getByRole('banner').getByRole('link', { name: shell['header.join'], exact: true }).count()).toBe(1);
      }
    });
  }

  it.each(LANGUAGES)("%s: the header's Login opens Keycloak's login page in the same language (ui_locales)", async (language) => {
    const { page } = await newPage(360);
    await page.goto(`${publicUrl}/`);
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 20_000 });
    await page.getByTestId('language-switch').selectOption(language);
    await waitForCatalogues(page, language, ['shell']);
    const shell = JSON.parse(fs.readFileSync(path.join(repoRoot, 'frontends/shell/src/i18n', `${language}.json`), 'utf8'));
    await page.getByRole('banner').getByRole('link', { name: shell['header.login'], exact: true }).click();
    await page.locator('#username').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('ui_locales')).toBe(language);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
  });

  describe.runIf(remotePages.length > 0)('signed-in pages of the remotes with a catalogue', () => {
    beforeAll(async () => {
      [buyer, farmer, moderator] = await Promise.all([
        accountWithProfile({ role: 'buyer' }),
        accountWithProfile({ role: 'farmer', businessName: 'Ede Farms', location: 'Oyo', tuber: ['yam'] }),
        accountWithProfile({ role: 'buyer', moderator: true }),
      ]);
      await ownPhoneNumber(buyer);
      const image_ids = await uploadPhotos(farmer, 2, 90, 'languages');
      const product = {
        product_name: `White yam for every language ${Math.random().toString(36).slice(2, 7)}`,
        description: 'Firm white yam, dug and washed this week near Oyo.',
        tuber_type: 'yam',
        cultural: 'Pounded yam for the family table.',
        unit: 'kg',
        price: 1500,
        quantity: 40,
        image_ids,
      };
      // The catalog learns of the new profile by event: ask every 2 s until it has.
      for (let attempt = 0; !productId; attempt++) {
        const posted = await api('POST', '/api/catalog/products', { token: farmer.accessToken, json: product });
        if (posted.status === 201) productId = posted.body.product_id as string;
        else if (posted.status !== 409 || attempt > 40)
          throw new Error(`posting the product answered ${posted.status}: ${JSON.stringify(posted.body)}`);
        else await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      // Reports of the product, so the desk's queue, target and audit log show one (not their empty state).
      await productOnTheDesk(buyer, moderator, productId);
      for (const who of ['buyer', 'farmer', 'moderator'] as const) {
        const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
        contexts.push(context);
        pages.set(who, await signInThroughShell(context, who === 'buyer' ? buyer : who === 'farmer' ? farmer : moderator));
      }
    }, 240_000);

    for (const language of ['en', ...LANGUAGES] as const) {
      for (const screen of remotePages) {
        it(`${language}: ${screen.name} renders with no missing key and fits 360 px`, async () => {
          const again = kept.get(screen.name);
          const page = again ?? (screen.keep ? await pages.get(screen.who)!.context().newPage() : pages.get(screen.who)!);
          // In front: a tab behind (the kept one of the same person, or this one) gets no animation frame, and its timers slow down.
          await page.bringToFront();
          await page.setViewportSize({ width: 360, height: 740 });
          if (!again) await page.goto(`${publicUrl}${screen.path()}`);
          await screen.ready(page).waitFor({ timeout: 30_000 });
          const select = page.getByTestId('language-switch');
          if ((await select.inputValue()) !== language) await select.selectOption(language);
          if (language !== 'en') await waitForCatalogues(page, language, ['shell', 'ui', screen.remote]);
          if (!again) {
            await screen.open?.(page);
            if (screen.keep) kept.set(screen.name, page);
          }
          await page.waitForLoadState('networkidle').catch(() => undefined);
          const state = await i18nState(page);
          expect(state.missing, `keys missing on ${screen.name} in ${language}`).toEqual([]);
          expect(state.lang).toBe(language);
          expect(
            state.overflowX,
            `${screen.name} in ${language} scrolls sideways at 360 px: ${state.wide.join(' | ')} (header: ${state.header.join(', ')})`,
          ).toBeLessThanOrEqual(0);
          await screenshot(page, `languages-${screen.name}-${language}-360`);
          // The header and the first screen, as a phone shows them.
          await page.screenshot({ path: path.join(artifactsDir, `languages-${screen.name}-${language}-360-top.png`) });
        }, 60_000);
      }
    }
  });
});
