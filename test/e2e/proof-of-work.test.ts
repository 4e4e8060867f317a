// A busy network, from a person's phone (issue 24, docs/adr/0068): when many posts to an account form came from
// one address, the auth service asks the next ones for a proof of work. The forgot-password page at 360 px gets
// the 429 PROOF_REQUIRED, shows "Checking…" with a line saying why (under the button, nothing over it), solves
// the challenge with WebCrypto in Chromium, sends the same post again with the proof, and ends with the
// success toast, in English and in Yoruba. Chromium's CPU is slowed 4× (as Lighthouse does for a phone), and
// the log says how long the check took.
import { PROOF_HEADER } from '@tuber/contracts';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import landingEn from '../../frontends/landing/src/i18n/en.json' with { type: 'json' };
import landingYo from '../../frontends/landing/src/i18n/yo.json' with { type: 'json' };
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { requireIdentityStack, toast, uniqueEmail } from './support/identity.js';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  await requireIdentityStack();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** Makes this address busy on the form: the posts a crowd behind one carrier address would send (they are 202s or challenges). */
async function busyAddress(posts: number) {
  for (let i = 0; i < posts; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, posts - i) }, async () => {
        const answer = await fetch(`${publicUrl}/api/auth/password/forgot`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: uniqueEmail('crowd') }),
        });
        await answer.arrayBuffer();
      }),
    );
  }
}

const LANGUAGES = [
  { locale: 'en', words: landingEn, done: 'Password reset link sent to your email!' },
  { locale: 'yo', words: landingYo, done: undefined },
] as const;

describe('an account form on a busy network asks the phone for a short check, and then goes through', () => {
  it.each(LANGUAGES)('forgot-password at 360 px in $locale: Checking…, the proof, the success toast', async ({ locale, words, done }) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    contexts.push(context);
    await context.addInitScript((chosen) => localStorage.setItem('tuber.locale', chosen), locale);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    const posts: { proof: boolean; status?: number; at: number }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/auth/password/forgot')
        posts.push({ proof: PROOF_HEADER in request.headers(), at: Date.now() });
    });
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/auth/password/forgot') {
        const post = posts.find((p) => p.status === undefined);
        if (post) post.status = response.status();
      }
    });

    await page.goto(`${publicUrl}/forgot-password`);
    const email = page.locator('input[name="email"]');
    await email.waitFor();
    // The crowd: past 40 posts this minute, the highest level (the longest check, so the screenshot catches it).
    await busyAddress(45);
    await email.fill(uniqueEmail('proof'));
    const started = Date.now();
    await page.locator('form button[type="submit"]').click();

    // ProofNote: the form's own status line, empty until the phone checks.
    const note = page.locator('form [role="status"]');
    await expect.poll(() => note.textContent(), { timeout: 15_000 }).toBe(words['account.checking-note']);
    expect(await page.locator('form button[type="submit"]').textContent()).toBe(words['account.checking']);
    // The note is inside the form at 360 px, under the button, and the page does not scroll sideways.
    const noteBox = (await note.boundingBox())!;
    const buttonBox = (await page.locator('form button[type="submit"]').boundingBox())!;
    expect(noteBox.y).toBeGreaterThanOrEqual(buttonBox.y + buttonBox.height - 1);
    expect(noteBox.x + noteBox.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, `proof-of-work-checking-${locale}-360`);

    if (done) await toast(page, done).waitFor({ timeout: 60_000 });
    else await expect.poll(() => posts.at(-1)?.status, { timeout: 60_000 }).toBe(202);
    await expect.poll(() => note.textContent()).toBe('');
    await screenshot(page, `proof-of-work-done-${locale}-360`);

    expect(posts.map(({ proof, status }) => ({ proof, status }))).toEqual([
      { proof: false, status: 429 },
      { proof: true, status: 202 },
    ]);
    console.log(
      `[proof-of-work] ${locale}: check solved in Chromium (CPU slowed 4×) in ${posts[1]!.at - posts[0]!.at} ms; ` +
        `click → answered ${Date.now() - started} ms`,
    );
    // The browser logs the challenge's 429 itself; nothing else may go wrong.
    expect(errors.filter((error) => !error.includes('status of 429'))).toEqual([]);
  }, 120_000);
});
