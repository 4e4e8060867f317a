// The shell on the declarative router (docs/adr/0048) keeps what the data router gave it:
// - a page that throws while rendering shows the error under the header, and the next navigation clears it
//   (a layout that throws shows the header and the error);
// - a new page starts at the top (or at its #hash), back/forward returns to where that entry was left, and a
//   reload keeps it.
// The boundary and the scroll restoration are the shell's own components (frontends/shell/src/layout/), run on
// a small page (fixtures/routerHarness.tsx, bundled here with webpack) whose pages can throw on purpose; the
// scroll is also checked on the running shell's landing page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, publicUrl, repoRoot } from './support/browser.js';

const HARNESS = 'http://router-harness.test';

/** The harness page bundled (React, the shared router module, the shell's components) into one script. */
async function bundleHarness(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-harness-'));
  const compiler = webpack({
    mode: 'production',
    context: repoRoot,
    entry: path.join(repoRoot, 'test/e2e/fixtures/routerHarness.tsx'),
    output: { path: outDir, filename: 'harness.js' },
    devtool: false,
    performance: { hints: false },
    optimization: { minimize: false },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      conditionNames: ['@tuber/source', '...'],
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2020' },
            },
          },
        },
      ],
    },
  });
  await new Promise<void>((resolve, reject) =>
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) reject(error);
      else if (stats?.hasErrors()) reject(new Error(stats.toString('errors-only')));
      else resolve();
    }),
  );
  const script = fs.readFileSync(path.join(outDir, 'harness.js'), 'utf8');
  fs.rmSync(outDir, { recursive: true, force: true });
  return script;
}

let browser: Browser;
let context: BrowserContext;
let script: string;

beforeAll(async () => {
  [script, browser] = await Promise.all([bundleHarness(), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 360, height: 640 } });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function openHarness(at: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Every address of the harness' made-up origin answers the same page (as the shell's server does).
  await page.route(`${HARNESS}/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/harness.js') return route.fulfill({ contentType: 'text/javascript', body: script });
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><div id="root"></div><script src="/harness.js"></script>' });
  });
  await page.goto(`${HARNESS}${at}`);
  return { page, errors };
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const scrollTo = async (page: Page, y: number) => {
  await page.evaluate((to) => window.scrollTo(0, to), y);
  // The position is recorded from scroll events; let one fire.
  await expect.poll(() => scrollY(page)).toBe(y);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
};
const headerLink = (page: Page, name: string) => page.locator('header').getByRole('link', { name, exact: true });

describe('the route error boundary', () => {
  it('shows a page that throws as an error under the header, and clears it on the next navigation', async () => {
    const { page } = await openHarness('/a');
    await page.getByRole('heading', { name: 'Page A' }).waitFor();
    await headerLink(page, 'Broken').click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('the page broke');
    expect(await alert.getAttribute('data-where')).toBe('page');
    // Under the header, inside the layout: the header and its links are still there.
    expect(await page.locator('header').count()).toBe(1);
    expect(await page.locator('main [role="alert"]').count()).toBe(1);

    await headerLink(page, 'B').click();
    await page.getByRole('heading', { name: 'Page B' }).waitFor();
    expect(await alert.count()).toBe(0);

    // Back to the broken page: broken again; forward: fine again.
    await page.goBack();
    await expect.poll(() => alert.textContent()).toBe('the page broke');
    await page.goForward();
    await page.getByRole('heading', { name: 'Page B' }).waitFor();
    expect(await alert.count()).toBe(0);
    await page.close();
  });

  it('shows the header and the error when the layout itself throws, and recovers on the next navigation', async () => {
    const { page } = await openHarness('/a');
    await headerLink(page, 'Layout broken').click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('the layout broke');
    expect(await alert.getAttribute('data-where')).toBe('layout');
    expect(await page.locator('header').count()).toBe(1);

    await headerLink(page, 'A').click();
    await page.getByRole('heading', { name: 'Page A' }).waitFor();
    expect(await alert.count()).toBe(0);
    await page.close();
  });
});

describe('scroll restoration', () => {
  it('starts a new page at the top, returns to the place on back and forward, and keeps it over a reload', async () => {
    const { page, errors } = await openHarness('/a');
    await page.getByRole('heading', { name: 'Page A' }).waitFor();
    expect(await page.evaluate(() => history.scrollRestoration)).toBe('manual');
    await scrollTo(page, 1500);

    await headerLink(page, 'B').click();
    await page.getByRole('heading', { name: 'Page B' }).waitFor();
    expect(await scrollY(page)).toBe(0);
    await scrollTo(page, 700);

    await page.goBack();
    await page.getByRole('heading', { name: 'Page A' }).waitFor();
    await expect.poll(() => scrollY(page)).toBe(1500);
    await page.goForward();
    await page.getByRole('heading', { name: 'Page B' }).waitFor();
    await expect.poll(() => scrollY(page)).toBe(700);

    // A reload is a POP of the same entry: the position comes back from sessionStorage.
    await page.reload();
    await page.getByRole('heading', { name: 'Page B' }).waitFor();
    await expect.poll(() => scrollY(page)).toBe(700);
    await page.goBack();
    await page.getByRole('heading', { name: 'Page A' }).waitFor();
    await expect.poll(() => scrollY(page)).toBe(1500);

    // A link to the page already shown is a new entry: the top again.
    await headerLink(page, 'A').click();
    await expect.poll(() => scrollY(page)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('scrolls a new page with a #hash to its target', async () => {
    const { page } = await openHarness('/a');
    await page.getByRole('heading', { name: 'Page A' }).waitFor();
    await headerLink(page, 'C target').click();
    await page.getByRole('heading', { name: 'Page C' }).waitFor();
    const top = await page.locator('#target').evaluate((target) => Math.round(target.getBoundingClientRect().top));
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(10);
    expect(await scrollY(page)).toBeGreaterThan(1500);
    await page.close();
  });

  it('on the shell: a new page from the landing page starts at the top, back returns to where the guest was', async () => {
    const page = await context.newPage();
    await page.goto(`${publicUrl}/`);
    const join = page.getByRole('link', { name: 'Join as a farmer' });
    await join.waitFor();
    await scrollTo(page, 1200);
    // Clicked where it is, without scrolling it into view first (a click on an element off screen would).
    await join.evaluate((link: HTMLElement) => link.click());
    await page.waitForURL(`${publicUrl}/signupfarmer`);
    await page.locator('main form').waitFor();
    // The sign-up page is tall enough on a phone that staying at 1200 would be possible.
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(0);
    await expect.poll(() => scrollY(page)).toBe(0);

    await page.goBack();
    await join.waitFor();
    await expect.poll(() => scrollY(page)).toBe(1200);
    await page.close();
  });
});
