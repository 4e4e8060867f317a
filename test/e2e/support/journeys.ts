// Smoke journeys through the real UI behind the gateway, for the version-skew test: it runs them once with
// an old shell and new remotes and once the other way round, so each journey crosses every seam between the
// shell and a remote (sign-in, the dashboard menu, in-app navigation, toasts, counters) and fails on anything
// a mismatch shows first: a console error, an uncaught exception, a missing translation, the remote-load
// fallback, an error toast. Each journey asserts what a person would see, and names itself and its step
// when it fails.
//
// runMarketJourneys(browser) is self-contained: it makes a farmer and a buyer, posts a product whose
// description carries a word found nowhere else (so the buyer's search finds exactly it), runs the buyer's
// journey (search → product → cart → request) and the farmer's (add a product → list → inbox → accept), and
// deletes both accounts. guestLanding(browser) needs no data.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { deleteAccount, type TestAccount } from '../../support/accounts.js';
import { api, eventually, photo } from '../../support/api.js';
import { signInWithPassword } from '../../support/keycloak.js';
import { publicUrl, screenshot } from './browser.js';
import { accountWithProfile, lagosDay, ordersKnowProduct, postProduct } from './market.js';
import { signInThroughShell } from './signIn.js';

// ---------- watching a page ----------

/** What the shell shows in place of a remote it could not load (RemoteErrorBoundary). */
export const REMOTE_FALLBACK_TEXT = 'This part of Tuber Market could not be loaded';
/** What the shell shows in place of a page that threw while rendering (RouteErrorPage). */
const ROUTE_ERROR_TEXT = 'Unexpected Application Error!';
/** The first remote load of a fresh context (manifest, chunks, catalogue) can be slow on a cold stack. */
const FIRST_LOAD_MS = 30_000;
/** expect.poll gives up after 1 s by default: far too soon for a page of the shell and a remote. */
const POLL = { timeout: 20_000, interval: 200 } as const;

export interface PageWatch {
  /** Every problem the page reported so far, in order, each a line naming what it was. */
  problems(): string[];
}

/**
 * Problems reported from inside a page by the init script of prepareContext (remote fallbacks, error
 * toasts), kept per page so they outlive a navigation and reach watchPage whenever it was attached.
 */
const reportedInPage = new WeakMap<Page, string[]>();
const watches = new WeakMap<Page, PageWatch>();
const prepared = new WeakSet<BrowserContext>();

function reportsOf(page: Page): string[] {
  let reports = reportedInPage.get(page);
  if (!reports) reportedInPage.set(page, (reports = []));
  return reports;
}

/** A network failure of the favicon is the browser's own request, not the app's: the one console error let through. */
function isFaviconFailure(message: ConsoleMessage): boolean {
  return /favicon/i.test(message.text()) || /favicon/i.test(message.location().url ?? '');
}

const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * Collects, from now on, every console error (but a favicon's network failure), every uncaught exception,
 * and every console warning starting "[i18n]" (how @tuber/ui reports a missing or broken message). With a
 * context made ready by prepareContext it also gets the remote-load fallback and error toasts the page
 * showed, even ones gone again. Synchronous, so it can be attached before the page's first navigation.
 * Watching a page twice answers the same watch.
 */
export function watchPage(page: Page): PageWatch {
  const existing = watches.get(page);
  if (existing) return existing;
  const seen: string[] = [];
  page.on('console', (message) => {
    const where = message.location().url ? ` (at ${message.location().url})` : '';
    // Enough to recognise the error; a federation error's text alone runs to a page of stack.
    if (message.type() === 'error' && !isFaviconFailure(message)) seen.push(`console error: ${clip(message.text())}${where}`);
    else if (message.type() === 'warning' && message.text().startsWith('[i18n]')) seen.push(`i18n warning: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`uncaught exception: ${clip(error.message)}`));
  // A browser's stack lines in a report ("    at http://…:1:2") would later be read by the test runner as the
  // failing error's own frames (it then fails on their URLs): marked, they stay text.
  const watch: PageWatch = { problems: () => [...seen, ...reportsOf(page)].map((problem) => problem.replace(/^(\s*)at /gm, '$1› at ')) };
  watches.set(page, watch);
  return watch;
}

/**
 * Makes a context report, from every page it opens, the remote fallback and the route error page appearing
 * (even for a moment) and every error toast, and keeps each toast's text in `window.__journeyToasts` (toasts
 * leave after 4 s: a slow step must not miss one). Idempotent; the journeys call it on every context they use.
 */
export async function prepareContext(context: BrowserContext): Promise<void> {
  if (prepared.has(context)) return;
  prepared.add(context);
  await context.exposeBinding('__journeyReport', ({ page }, problem: string) => {
    reportsOf(page).push(problem);
  });
  await context.addInitScript(
    ([fallbackText, routeErrorText]) => {
      type Report = (problem: string) => void;
      const report = (problem: string) => (window as unknown as { __journeyReport?: Report }).__journeyReport?.(problem);
      const toasts: string[] = ((window as unknown as { __journeyToasts: string[] }).__journeyToasts = []);
      const fallbacks = new WeakSet<Element>();
      const inspect = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          const text = node.textContent ?? '';
          if (text.includes(fallbackText) || text.includes(routeErrorText)) report(`shown: "${text.trim()}"`);
          return;
        }
        if (!(node instanceof Element)) return;
        const boundaries = node.matches('[data-remote-fallback]') ? [node] : Array.from(node.querySelectorAll('[data-remote-fallback]'));
        for (const boundary of boundaries) {
          if (fallbacks.has(boundary)) continue;
          fallbacks.add(boundary);
          const title = boundary.querySelector('h2')?.textContent ?? boundary.textContent ?? '';
          report(`remote fallback for "${boundary.getAttribute('data-remote-fallback')}": ${title.trim()}`);
        }
        const text = node.textContent ?? '';
        if (boundaries.length === 0 && (text.includes(fallbackText) || text.includes(routeErrorText)))
          report(`shown: "${text.trim().slice(0, 200)}"`);
        // The shell's toast host is the aria-live region; its error toasts are role=alert.
        if (node.matches('[role="alert"], [role="status"]') && node.parentElement?.getAttribute('aria-live') === 'polite') {
          const message = (node.querySelector('span')?.textContent ?? node.textContent ?? '').trim();
          toasts.push(message);
          if (node.getAttribute('role') === 'alert') report(`error toast: ${message}`);
        }
      };
      new MutationObserver((records) => {
        for (const record of records) record.addedNodes.forEach(inspect);
      }).observe(document, { childList: true, subtree: true });
    },
    [REMOTE_FALLBACK_TEXT, ROUTE_ERROR_TEXT] as const,
  );
}

/** The keys this page asked for that its language lacks ("<remote>:<locale>:<id>", from @tuber/ui). */
export function missingKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((globalThis as unknown as { __tuberMissingKeys?: Set<string> }).__tuberMissingKeys ?? [])]);
}

/** Fails, naming the journey, when the page reported any problem, lacks a translation, or shows a fallback now. */
export async function expectNoProblems(journey: string, page: Page, watch: PageWatch = watchPage(page)): Promise<void> {
  const problems = [...watch.problems()];
  if (!page.isClosed()) {
    problems.push(...(await missingKeys(page)).map((key) => `missing translation: ${key}`));
    const shownNow = await page.locator('[data-remote-fallback]').count();
    if (shownNow > 0 && !problems.some((problem) => problem.startsWith('remote fallback')))
      problems.push(`remote fallback on screen at ${page.url()}`);
  }
  // The list in the message too: vitest abbreviates a long array in its diff ("[ …(3) ]").
  expect(
    problems,
    `${journey}: the page at ${page.isClosed() ? '(closed)' : page.url()} reported problems:\n  ${problems.join('\n  ')}\n`,
  ).toEqual([]);
}

// ---------- shared steps ----------

type Target = Browser | BrowserContext;

const FINAL_CHECK = 'no problems on any page';

const isBrowser = (target: Target): target is Browser => 'newContext' in target;

/** A context for one journey: a fresh one from a Browser (closed by the journey), or the caller's own (left open). */
async function contextFor(target: Target): Promise<{ context: BrowserContext; owned: boolean }> {
  const context = isBrowser(target) ? await target.newContext({ viewport: { width: 1280, height: 900 } }) : target;
  await prepareContext(context);
  return { context, owned: isBrowser(target) };
}

/**
 * One journey's bookkeeping: the step it is at, the pages it opened (each watched), and on failure a
 * screenshot and an error that names the journey, the step and what the pages reported meanwhile (a
 * version mismatch usually shows in the console before a locator times out).
 */
class Journey {
  private step = 'start';
  private readonly pages: { page: Page; watch: PageWatch }[] = [];

  private constructor(
    readonly name: string,
    readonly context: BrowserContext,
    private readonly owned: boolean,
  ) {}

  static async open(name: string, target: Target): Promise<Journey> {
    const { context, owned } = await contextFor(target);
    return new Journey(name, context, owned);
  }

  /** A new page, watched before its first navigation. */
  async newPage(): Promise<Page> {
    const page = await this.context.newPage();
    this.pages.push({ page, watch: watchPage(page) });
    return page;
  }

  /**
   * Signs in through the shell (signInThroughShell); the page it opens is watched from its creation, so the
   * first remote load after Keycloak's redirect counts too.
   */
  async signIn(account: TestAccount, home: RegExp): Promise<Page> {
    const onPage = (page: Page) => this.pages.push({ page, watch: watchPage(page) });
    this.context.on('page', onPage);
    try {
      const page = await signInThroughShell(this.context, account, home);
      if (!this.pages.some((watched) => watched.page === page)) this.pages.push({ page, watch: watchPage(page) });
      return page;
    } finally {
      this.context.off('page', onPage);
    }
  }

  async run<T>(step: string, action: () => Promise<T>): Promise<T> {
    this.step = step;
    return action();
  }

  /** Runs the journey's body; then checks every page it opened for problems and closes what it opened. */
  async drive<T>(body: () => Promise<T>): Promise<T> {
    try {
      const result = await body();
      this.step = FINAL_CHECK;
      for (const { page, watch } of this.pages) await expectNoProblems(this.name, page, watch);
      return result;
    } catch (error) {
      throw await this.failure(error);
    } finally {
      if (this.owned) await this.context.close().catch(() => undefined);
      else for (const { page } of this.pages) await page.close().catch(() => undefined);
    }
  }

  private async failure(error: unknown): Promise<Error> {
    const last = this.pages.at(-1)?.page;
    let shot = '';
    if (last && !last.isClosed()) {
      const name = `journey-${this.name.replace(/\W+/g, '-')}-failure`;
      shot = await screenshot(last, name).then(
        (file) => `\nscreenshot: ${file}`,
        () => '',
      );
    }
    // The final check's own message lists them already.
    const problems = this.step === FINAL_CHECK ? [] : this.pages.flatMap(({ watch }) => watch.problems());
    const where = last && !last.isClosed() ? ` at ${last.url()}` : '';
    const message = error instanceof Error ? error.message : String(error);
    const text =
      `${this.name} failed at step "${this.step}"${where}: ${message}` +
      (problems.length ? `\nwhat the pages reported meanwhile:\n  ${problems.join('\n  ')}` : '') +
      shot;
    // A browser's stack lines quoted in the message ("    at http://…/main.js:1:2") would be read as this error's
    // own frames by the test runner, which then fails on their URLs: marked, they stay text.
    return new Error(text.replace(/^(\s*)at /gm, '$1› at '), { cause: error });
  }
}

/** The dashboard's sidebar menu (the shell's), at desktop width. */
const menuLink = (page: Page, label: RegExp): Locator =>
  page.getByRole('complementary', { name: 'Dashboard menu' }).getByRole('link', { name: label });

/**
 * Waits for what a page of a remote shows, or fails at once, saying so, when the shell shows the remote's
 * fallback or its route error page in its place (no point waiting out the timeout: the page will not come).
 */
async function appears(page: Page, expected: Locator, timeout = FIRST_LOAD_MS): Promise<void> {
  const broken = page.locator('[data-remote-fallback]').or(page.getByRole('heading', { name: ROUTE_ERROR_TEXT }));
  await expected.or(broken).first().waitFor({ timeout });
  if ((await broken.count()) > 0 && !(await expected.first().isVisible())) {
    const shown = (
      await broken
        .first()
        .innerText()
        .catch(() => '')
    )
      .replace(/\s+/g, ' ')
      .trim();
    throw new Error(`the shell shows "${shown}" instead of the page`);
  }
}

/** Waits until a toast with this text was shown (recorded by prepareContext's init script); answers its text. */
async function toastShown(page: Page, text: string | RegExp): Promise<string> {
  const matches = (toast: string) => (typeof text === 'string' ? toast === text : text.test(toast));
  const seen = () => page.evaluate(() => (window as unknown as { __journeyToasts?: string[] }).__journeyToasts ?? []);
  await expect.poll(async () => (await seen()).some(matches), { ...POLL, message: `no toast ${String(text)}` }).toBe(true);
  return (await seen()).find(matches)!;
}

/** A fresh access token (they last 5 minutes; a journey's accounts may be older). */
async function tokenOf(account: TestAccount): Promise<string> {
  return (await signInWithPassword(account.email, account.password)).accessToken;
}

// ---------- the guest ----------

/** A visitor on the landing page (the landing remote inside the shell), then the landing remote's Join page. */
export async function guestLanding(target: Target): Promise<void> {
  const journey = await Journey.open('guest landing', target);
  await journey.drive(async () => {
    const page = await journey.newPage();
    await journey.run('the landing page', async () => {
      await page.goto(`${publicUrl}/`);
      await appears(page, page.getByRole('heading', { level: 1, name: 'Fresh from Earth, available within your reach' }));
      for (const card of ['Sell Your Crops', 'Market Expansion', 'Sales Management', 'Secure Transactions'])
        await page.getByRole('heading', { name: card }).waitFor();
      // The shell's header around the remote: the wordmark and the guest's links.
      expect(await page.getByRole('banner').getByRole('link', { name: 'Tuber Market home' }).getAttribute('href')).toBe('/');
      expect(await page.getByRole('banner').getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    });
    await journey.run('Join now → the onboarding page', async () => {
      // Another module of the landing remote, reached through the shell's router (no page load).
      await page.getByRole('banner').getByRole('link', { name: 'Join now' }).click();
      await page.waitForURL((url) => url.pathname === '/onboarding');
      await appears(page, page.getByRole('heading', { level: 1, name: 'Join Tuber Market' }));
      await page.getByRole('heading', { name: 'I grow tubers' }).waitFor();
    });
  });
}

// ---------- the market ----------

/** A product the buyer's journey looks for, as the farmer posted it. */
export interface MarketProduct {
  productId: string;
  name: string;
  /** A word of its description found in no other product: searching it finds exactly this one. */
  word: string;
  price: number;
  unit: 'kg';
  farmerId: string;
  /** The farmer's business name: the heading of the cart's group and of the request form. */
  business: string;
}

/** A request the buyer sent, as the farmer's inbox shows it. */
export interface SentRequest {
  number: string;
  requestId: string;
}

export interface BuyerJourneyResult {
  buyer: TestAccount;
  request: SentRequest;
}

export interface FarmerJourneyResult {
  /** The product added through the Add Product page. */
  added: { productId: string; name: string };
}

/** Waits until the orders service has its copy of the product (market.ts: ordersKnowProduct). */
async function ordersKnow(buyer: TestAccount, product: MarketProduct): Promise<void> {
  await ordersKnowProduct(await tokenOf(buyer), product);
}

/**
 * A buyer signs in through the shell, sees the feed, searches the product's word and finds exactly it,
 * opens it, adds it to the cart, opens the cart from the menu, sends the request to the farmer and finds it
 * under My requests as Sent. Makes a buyer when none is given (the caller deletes it: it is returned).
 */
export async function buyerJourney(
  target: Target,
  { farmerProduct, buyer: given }: { farmerProduct: MarketProduct; buyer?: TestAccount },
): Promise<BuyerJourneyResult> {
  const buyer = given ?? (await accountWithProfile({ role: 'buyer' }));
  const product = farmerProduct;
  const journey = await Journey.open('buyer journey', target);
  return journey.drive(async () => {
    const page = await journey.run('sign in through the shell', () => journey.signIn(buyer, /^\/dashboard\/buyer/));
    const cards = page.getByTestId('product-card');

    await journey.run('the feed', async () => {
      await appears(page, cards.first());
      expect(await cards.count(), 'the feed shows no product card').toBeGreaterThan(0);
    });

    await journey.run(`search "${product.word}"`, async () => {
      const box = page.getByRole('searchbox', { name: 'Search products' });
      await box.fill(product.word);
      await box.press('Enter');
      await page.waitForURL((url) => url.pathname === '/dashboard/buyer' && url.searchParams.get('q') === product.word);
      await expect
        .poll(() => cards.locator('h2').allTextContents(), {
          ...POLL,
          message: `the search for "${product.word}" should find only ${product.name}`,
        })
        .toEqual([product.name]);
    });

    await journey.run('the product page', async () => {
      await cards.getByRole('link', { name: product.name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/dashboard/buyer/${product.productId}`);
      const detail = page.getByTestId('product-detail');
      await appears(page, detail.getByRole('heading', { level: 1, name: product.name }));
      await expect.poll(() => detail.getByTestId('product-price').textContent(), POLL).toBe('₦1,500.00 per kg');
      await detail.getByText(product.word, { exact: false }).first().waitFor();
    });

    await journey.run('add to cart', async () => {
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await toastShown(page, 'item added to cart');
      // The remote's cart count reaches the shell's menu through the shell contract's counters.
      await menuLink(page, /^Carts?\s*\(1 item in cart\)$/).waitFor({ timeout: POLL.timeout });
    });

    const form = page.getByRole('form', { name: `Request to ${product.business}` });
    await journey.run('the cart, from the menu', async () => {
      await menuLink(page, /^Carts?\b/).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/cart');
      await appears(page, page.getByRole('heading', { name: 'Cart', exact: true }));
      await page.locator(`[data-testid="cart-item"][data-product-id="${product.productId}"]`).waitFor();
      await expect.poll(() => page.getByTestId('cart-total-items').textContent(), POLL).toBe('1');
      await form.waitFor();
    });

    const number = await journey.run('send the request', async () => {
      await form.getByLabel('Pickup from the farm').check();
      await form.getByLabel('Preferred date').fill(lagosDay(2));
      await form.getByLabel('Your phone number').fill('0803 123 4567');
      await form.getByLabel('Note for the farmer (optional)').fill(`Smoke check ${product.word}`);
      // The orders service learns products by event; sending before it has would be refused (a 409 in the console).
      await ordersKnow(buyer, product);
      await form.getByRole('button', { name: 'Send request' }).click();
      // The confirmation on the page (issue 25); a buyer remote of the last release says it in a toast.
      const said = new RegExp(`^Request TM-\\S+ sent to ${escapeRegExp(product.business)}$`);
      const heading = page.getByTestId('request-sent').getByRole('heading', { name: said });
      const sent = await Promise.any([
        heading.waitFor({ timeout: 20_000 }).then(async () => (await heading.textContent())!.trim()),
        toastShown(page, said),
      ]);
      await page.getByText('There is no item in the cart').waitFor();
      return /TM-\S+/.exec(sent)![0];
    });

    const requestId = await journey.run('My requests shows it as Sent', async () => {
      await menuLink(page, /^My requests/).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/requests');
      await appears(page, page.getByRole('heading', { level: 1, name: 'My requests' }));
      const card = page.getByTestId('request').filter({ hasText: number });
      await card.waitFor();
      expect(await card.getByTestId('request-status').textContent()).toBe('Sent');
      expect(await card.textContent()).toContain(product.business);
      const id = await card.getAttribute('data-request-id');
      expect(id, `the request card of ${number} has no data-request-id`).toBeTruthy();
      return id!;
    });

    return { buyer, request: { number, requestId } };
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let photos: Buffer[] | undefined;

/**
 * The farmer signs in through the shell, adds a product on the Add Product page (two real photos through its
 * file input), finds it in All Product List (beside `alsoListed`, posted earlier), opens Requests from the
 * menu, opens the buyer's request, accepts it as asked and finds it accepted, also under the Accepted tab.
 */
export async function farmerJourney(
  target: Target,
  farmer: TestAccount,
  { request, alsoListed }: { request: SentRequest; alsoListed?: string },
): Promise<FarmerJourneyResult> {
  // Two small JPEGs of different colours, made once (the media service reads the content, not the name).
  photos ??= await Promise.all([photo(640, 480, 40), photo(640, 480, 160)]);
  const name = `Smoke yam ${randomUUID().slice(0, 6)}`;
  const journey = await Journey.open('farmer journey', target);
  return journey.drive(async () => {
    const page = await journey.run('sign in through the shell', () => journey.signIn(farmer, /^\/dashboard\//));

    const form = page.getByRole('form', { name: 'Add Product' });
    await journey.run('the Add Product page', async () => {
      // A farmer lands on Add Product; through the menu when the shell sent them elsewhere.
      if (new URL(page.url()).pathname !== '/dashboard/farmer') await menuLink(page, /^Add Product/).click();
      await appears(page, page.getByRole('heading', { name: 'Add Product' }));
      await form.waitFor();
    });

    await journey.run('fill in and post a product', async () => {
      await form.getByLabel('Product Name').fill(name);
      await form.getByLabel('Description').fill('White yam dug this morning, dried in the shade and sorted by size for the market.');
      await form.getByLabel('Price per kg (₦)').fill('1800');
      await form.getByLabel('Quantity available (kg)').fill('40');
      await form.getByLabel('Cultural Values').fill('Shared at the New Yam festival.');
      await form.getByLabel('Tuber Type').selectOption('yam');
      await form
        .locator('input[type="file"]')
        .setInputFiles(photos!.map((buffer, i) => ({ name: `smoke harvest ${i + 1}.jpg`, mimeType: 'image/jpeg', buffer })));
      await expect.poll(() => form.getByTestId('photo-count').textContent(), POLL).toContain('2 of 2–5 photos');
      // Post Product stays disabled while photos upload.
      const post = form.getByRole('button', { name: 'Post Product' });
      await expect.poll(() => post.isEnabled(), POLL).toBe(true);
      await post.click();
      await toastShown(page, 'Product posted successfully!');
      await page.waitForURL((url) => url.pathname === '/dashboard/productLists');
    });

    const productId = await journey.run('All Product List shows it', async () => {
      await appears(page, page.getByRole('heading', { name: 'All Product List' }));
      const card = page.getByRole('article', { name });
      await card.waitFor();
      await card.getByText('₦1,800.00 per kg').waitFor();
      await card.getByText('40 kg', { exact: true }).waitFor();
      if (alsoListed) await page.getByRole('article', { name: alsoListed }).waitFor();
      const edit = await card.getByRole('link', { name: `Edit ${name}` }).getAttribute('href');
      const id = /\/dashboard\/productLists\/([^/]+)\/edit$/.exec(edit ?? '')?.[1];
      expect(id, `no product id in the Edit link of ${name} (${edit})`).toBeTruthy();
      return id!;
    });

    const card = page.getByTestId('order-request').filter({ hasText: request.number });
    await journey.run(`Requests, from the menu: ${request.number}`, async () => {
      // The shell's unread counter (read from the orders service) shows the buyer's request on the menu.
      await menuLink(page, /^Requests\s*\(1 unread request\)$/).waitFor({ timeout: POLL.timeout });
      await menuLink(page, /^Requests/).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/inbox');
      await appears(page, page.getByRole('heading', { level: 1, name: 'Requests' }));
      await card.waitFor({ timeout: FIRST_LOAD_MS });
      if ((await card.locator('details').getAttribute('open')) === null) await card.locator('summary').click();
      await card.getByRole('table').waitFor();
      expect(await card.getAttribute('data-status')).toBe('sent');
    });

    await journey.run('accept it', async () => {
      await card.getByRole('button', { name: 'Accept', exact: true }).click();
      await card
        .getByRole('form', { name: `Accept ${request.number}` })
        .getByRole('button', { name: 'Accept request' })
        .click();
      await toastShown(page, 'Request accepted successfully!');
      await expect.poll(() => card.getAttribute('data-status'), POLL).toBe('accepted');
    });

    await journey.run('the Accepted tab shows it', async () => {
      await page.getByRole('tab', { name: 'Accepted', exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { name: 'Accepted', exact: true }).getAttribute('aria-selected'), POLL).toBe('true');
      await card.waitFor();
      expect(await card.locator('summary').textContent()).toContain('Accepted');
      // And on the server: what the buyer will be told.
      const onServer = await api('GET', `/api/orders/requests/${request.requestId}`, { token: await tokenOf(farmer) });
      expect(onServer.status, JSON.stringify(onServer.body)).toBe(200);
      expect(onServer.body.status).toBe('accepted');
    });

    return { added: { productId, name } };
  });
}

export interface MarketJourneysReport {
  product: MarketProduct;
  buyer: BuyerJourneyResult;
  farmer: FarmerJourneyResult;
  /** Milliseconds per part: setup (accounts, product, read models), buyer, farmer. */
  timings: { setup: number; buyer: number; farmer: number };
}

/**
 * The market's journeys end to end, with data of their own: a farmer and a buyer (with profiles), a product
 * posted through the API with a unique word in its description, found by the catalog's search and known to
 * the orders service before the buyer starts; then the buyer's journey and the farmer's. Both accounts are
 * deleted at the end, whatever happened.
 */
export async function runMarketJourneys(browser: Browser): Promise<MarketJourneysReport> {
  const started = Date.now();
  const run = randomUUID().replaceAll('-', '').slice(0, 8);
  // Letters and digits only: the catalog splits search words on anything else.
  const word = `skew${run}`;
  const business = `Skew Farms ${run}`;
  const [farmer, buyer] = await Promise.all([
    accountWithProfile({ role: 'farmer', businessName: business, location: 'Ibadan, Oyo State', tuber: ['yam', 'cassava'] }),
    accountWithProfile({ role: 'buyer' }),
  ]);
  try {
    const name = `Smoke check yam ${run}`;
    const posted = await postProduct(farmer, {
      product_name: name,
      // The word early: a product is searchable by its first 80 words only.
      description: `Batch ${word}: white yam dug this week, washed and sorted by size.`,
      price: 1500,
      unit: 'kg',
      quantity: 80,
      tuber_type: 'yam',
    });
    const product: MarketProduct = {
      productId: posted.product_id,
      name,
      word,
      price: 1500,
      unit: 'kg',
      farmerId: farmer.id,
      business,
    };
    // The search runs on a read model fed by events: wait until it finds the product before a person searches.
    const found = await eventually(
      () => api('GET', `/api/catalog/products?limit=12&q=${word}`, { token: buyer.accessToken }),
      (answer) => answer.status === 200 && answer.body.items?.some((item: { product_id: string }) => item.product_id === product.productId),
      30_000,
    );
    expect(
      found.body.items?.map((item: { product_id: string }) => item.product_id),
      `the catalog's search for "${word}" does not find ${product.productId}: ${JSON.stringify(found.body)}`,
    ).toEqual([product.productId]);
    await ordersKnow(buyer, product);
    const setupDone = Date.now();

    const buyerResult = await buyerJourney(browser, { farmerProduct: product, buyer });
    const buyerDone = Date.now();
    const farmerResult = await farmerJourney(browser, farmer, { request: buyerResult.request, alsoListed: name });
    return {
      product,
      buyer: buyerResult,
      farmer: farmerResult,
      timings: { setup: setupDone - started, buyer: buyerDone - setupDone, farmer: Date.now() - buyerDone },
    };
  } finally {
    await Promise.all([farmer, buyer].map((account) => deleteAccount(account.id).catch(() => undefined)));
  }
}
