// Keycloak's pages have a language switch a thumb can hit (issue 25): on the sign-in page at 360 px, the
// switch is at least 44 × 44 px, lists the five languages each in its own name, and a choice shows the page
// in that language at once (Keycloak keeps it in its locale cookie), with no English left in the form.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.js';
import { requireIdentityStack } from './support/identity.js';
import { openSignInForm } from './support/signIn.js';

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  await requireIdentityStack();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 360, height: 780 } });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("Keycloak's sign-in page in the reader's language", () => {
  it('has a 44 px language switch listing the five languages; Yorùbá, then Hausa, show at once', async () => {
    const page = await openSignInForm(context);

    const toggle = page.locator('#tuber-language > summary');
    const box = (await toggle.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    await toggle.click();
    const options = page.locator('#tuber-language a');
    expect((await options.allTextContents()).map((name) => name.trim()).sort()).toEqual(['English', 'Hausa', 'Igbo', 'Pidgin', 'Yorùbá']);
    for (const option of await options.all()) expect((await option.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, 'keycloak-language-open-360');

    await options.filter({ hasText: 'Yorùbá' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'yo', undefined, { timeout: 15_000 });
    expect(await page.locator('#kc-login').inputValue().catch(async () => page.locator('#kc-login').textContent())).toMatch(/Wọlé/);
    expect(await page.title()).toBe('Wọlé sí Tuber Market');
    await screenshot(page, 'keycloak-language-yo-360');

    await page.locator('#tuber-language > summary').click();
    await page.locator('#tuber-language a', { hasText: 'Hausa' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'ha', undefined, { timeout: 15_000 });
    const form = (await page.locator('#kc-form-login, form').first().innerText()).toLowerCase();
    for (const english of ['password', 'sign in', 'forgot', 'username', 'email']) expect(form).not.toContain(english);
  });
});
