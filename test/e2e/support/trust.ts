// The screens of issue 26 (docs/adr/0070, docs/adr/0071) for the page sweeps (a11y, languages, english-sweep):
// the moderation desk with something in it, the open report form and the phone code step. The desk is the
// same for every moderator (its queue is everybody's reports, 20 to a page, oldest first), so a sweep closes
// what it filed when it ends; a phone number gets a code once a minute and 5 a day, so a sweep sends one from
// an account with a number of its own and keeps that page open (it switches its language in place).
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { TestAccount } from '../../support/accounts.js';
import { api, eventually } from '../../support/api.js';
import { signInWithPassword } from '../../support/keycloak.js';

/** A buyer's report of a product; the moderation service learns products by event, so it may answer 404 first. */
async function report(buyer: TestAccount, productId: string, reason: string, note: string): Promise<void> {
  const sent = await eventually(
    () =>
      api('POST', '/api/moderation/reports', {
        token: buyer.accessToken,
        json: { target_kind: 'product', target_id: productId, reason, note },
      }),
    (answer) => answer.status !== 404,
    30_000,
  );
  if (sent.status !== 201 && sent.status !== 200)
    throw new Error(`reporting the product answered ${sent.status}: ${JSON.stringify(sent.body)}`);
}

/** The moderator's action on the product, with a fresh token (a sweep's end comes long after its sign-in). */
async function act(moderator: TestAccount, productId: string, action: string, reason: string) {
  const { accessToken } = await signInWithPassword(moderator.email, moderator.password);
  return api('POST', `/api/moderation/targets/product/${encodeURIComponent(productId)}/actions`, {
    token: accessToken,
    json: { action, reason },
  });
}

/**
 * The product on the desk, for its three views: a report the moderator dismissed (an entry in the audit log and
 * the target's history, a closed report) and an open one (an item in the queue).
 */
export async function productOnTheDesk(buyer: TestAccount, moderator: TestAccount, productId: string): Promise<void> {
  await report(buyer, productId, 'wrong_price', 'The price is per heap, not per kg.');
  const dismissed = await act(moderator, productId, 'dismiss', 'The farmer sells by the kg; the price is right.');
  if (dismissed.status !== 201) throw new Error(`dismissing the report answered ${dismissed.status}: ${JSON.stringify(dismissed.body)}`);
  await report(buyer, productId, 'wrong_photos', 'Same photo as another farm’s listing.');
}

/**
 * Closes the product's open reports, so a sweep leaves nothing in the queue (leftovers would push newer reports off
 * its first page).
 */
export async function clearFromDesk(moderator: TestAccount | undefined, productId: string): Promise<void> {
  if (!moderator || !productId) return;
  await act(moderator, productId, 'dismiss', 'Closed by the page sweep that filed it.').catch(() => undefined);
}

/** Gives the account a number of its own, so no other test's codes count towards its minute and its day. */
export async function ownPhoneNumber(account: TestAccount): Promise<string> {
  const national = `0809${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  const changed = await api('PATCH', '/api/profile/me', { token: account.accessToken, json: { phone: national } });
  if (changed.status !== 200) throw new Error(`changing the phone number answered ${changed.status}: ${JSON.stringify(changed.body)}`);
  return changed.body.phone as string;
}

/** On a product page: opens the report form (its reasons and note field). */
export async function openReportForm(page: Page): Promise<void> {
  await page.getByTestId('report-open').click();
  await page.getByTestId('report-form').waitFor();
}

/**
 * On a profile page: presses "Verify by SMS" and waits for the code step. The step lives in the page only and a
 * number gets one code a minute: open it once and keep the page.
 */
export async function sendPhoneCode(page: Page): Promise<void> {
  const check = page.getByTestId('phone-check');
  // The one button before a code is sent: "Verify by SMS", in whichever language the page is.
  await check.getByRole('button').first().click();
  const sent = check.getByRole('status');
  const refused = check.getByRole('alert');
  await sent.or(refused).first().waitFor({ timeout: 20_000 });
  if (await refused.isVisible()) throw new Error(`sending the code was refused: ${await refused.textContent()}`);
}
