// Verifying a phone number by SMS (issue 26, docs/adr/0070), in headless Chromium against the real servers, the
// code read from the local SMS catcher (the one stand-in: it speaks the provider's API). A buyer at 360 px in
// English types a wrong code, then the right one, and sees the badge; a farmer at 360 px in Yoruba verifies and
// switches the new-request SMS alerts on; a buyer at 1280 px sees the badge on the farm page.
// Screenshots test-artifacts/phone-*.png.
import { randomInt } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import buyerEn from '../../frontends/buyer/src/i18n/en.json' with { type: 'json' };
import farmerYo from '../../frontends/farmer/src/i18n/yo.json' with { type: 'json' };
import uiEn from '../../frontends/ui/src/i18n/en.json' with { type: 'json' };
import uiYo from '../../frontends/ui/src/i18n/yo.json' with { type: 'json' };
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { api } from '../support/api.js';
import { codeFrom, waitForSms } from '../support/sms.js';
import { collectPageErrors, launchBrowser, publicUrl, screenshot } from './support/browser.js';
import { waitForCatalogues } from './support/catalogues.js';
import { accountWithProfile } from './support/market.js';
import { signInThroughShell } from './support/signIn.js';

let browser: Browser;
const accounts: TestAccount[] = [];
const contexts: BrowserContext[] = [];

/** An account with a number of its own (no other test's codes count towards its day). */
async function withOwnNumber(role: 'buyer' | 'farmer'): Promise<{ account: TestAccount; phone: string }> {
  const account = await accountWithProfile(role === 'farmer' ? { role, businessName: `Verified Farm ${randomInt(1000)}`, location: 'Ibadan', tuber: ['yam'] } : { role });
  accounts.push(account);
  const national = `0809${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  const changed = await api('PATCH', '/api/profile/me', { token: account.accessToken, json: { phone: national } });
  expect(changed.status).toBe(200);
  return { account, phone: changed.body.phone };
}

async function page(account: TestAccount, width: number, locale = 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 900 } });
  contexts.push(context);
  await context.addInitScript((chosen) => localStorage.setItem('tuber.locale', chosen), locale);
  return signInThroughShell(context, account);
}

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all(accounts.map((account) => deleteAccount(account.id).catch(() => undefined)));
});

describe('verifying a phone number by SMS', () => {
  it('a buyer at 360 px: a wrong code costs a try, the right one shows the badge', async () => {
    const { account, phone } = await withOwnNumber('buyer');
    const p = await page(account, 360);
    const errors = collectPageErrors(p);
    await p.goto(`${publicUrl}/dashboard/buyerprofile`);
    const check = p.getByTestId('phone-check');
    await check.getByText(uiEn['phone.not_verified']).waitFor();
    const since = new Date();
    await check.getByRole('button', { name: uiEn['phone.verify'] }).click();
    const sms = await waitForSms(phone, /Tuber Market code: \d{6}/, { since });
    await check.getByRole('status').waitFor();
    expect(await check.getByRole('status').textContent()).toContain(`+234 ${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`);
    // The resend waits out its minute.
    expect(await check.getByRole('button', { name: /New code in \d+ s/ }).isDisabled()).toBe(true);
    await screenshot(p, 'phone-code-en-360');

    const code = codeFrom(sms);
    await check.getByLabel(uiEn['phone.code_label']).fill(wrongOf(code));
    await check.getByRole('button', { name: uiEn['phone.confirm'], exact: true }).click();
    await expect.poll(() => p.getByRole('alert').first().textContent()).toBe('That is not the code we sent. 4 tries left.');
    await screenshot(p, 'phone-wrong-en-360');

    await check.getByLabel(uiEn['phone.code_label']).fill(code);
    await check.getByRole('button', { name: uiEn['phone.confirm'], exact: true }).click();
    await p.getByTestId('phone-verified-badge').waitFor();
    expect(await p.getByTestId('phone-verified-badge').textContent()).toContain(uiEn['phone.verified']);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(p, 'phone-verified-en-360');
    expect((await api('GET', '/api/profile/me', { token: account.accessToken })).body.phone_verified).toBe(true);
    // The wrong code's 400 is the browser's own console line; nothing else.
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  }, 120_000);

  it('a farmer at 360 px in Yoruba verifies and switches the SMS alerts on; buyers see the badge on the farm page', async () => {
    const { account: farmer, phone } = await withOwnNumber('farmer');
    const p = await page(farmer, 360, 'yo');
    const errors = collectPageErrors(p);
    await p.goto(`${publicUrl}/dashboard/farmerprofile`);
    await waitForCatalogues(p, 'yo', ['farmer', 'ui']);
    const alerts = p.getByLabel(farmerYo['profile.sms_alerts']);
    expect(await alerts.isDisabled()).toBe(true); // not before the number is verified
    const since = new Date();
    await p.getByRole('button', { name: uiYo['phone.verify'], exact: true }).click();
    const code = codeFrom(await waitForSms(phone, /Kóòdù Tuber Market: \d{6}/, { since }));
    await p.getByLabel(uiYo['phone.code_label']).fill(code);
    await screenshot(p, 'phone-code-yo-360');
    await p.getByRole('button', { name: uiYo['phone.confirm'], exact: true }).click();
    await p.getByTestId('phone-verified-badge').waitFor();
    await expect.poll(() => alerts.isDisabled()).toBe(false);
    await alerts.check();
    await expect.poll(async () => (await api('GET', '/api/profile/me', { token: farmer.accessToken })).body.sms_alerts).toBe(true);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await p.getByTestId('phone-verified-badge').scrollIntoViewIfNeeded();
    await screenshot(p, 'phone-alerts-yo-360');
    expect(errors).toEqual([]);

    const buyer = await accountWithProfile({ role: 'buyer' });
    accounts.push(buyer);
    const wide = await page(buyer, 1280);
    await wide.goto(`${publicUrl}/dashboard/buyer?farmer=${encodeURIComponent(farmer.id)}`);
    const farm = wide.getByTestId('farmer-page');
    await farm.getByTestId('phone-verified-badge').waitFor();
    expect(await farm.getByTestId('phone-verified-badge').textContent()).toContain(buyerEn['farm.phone-verified']);
    await screenshot(wide, 'phone-farm-badge-en-1280');
  }, 150_000);
});
