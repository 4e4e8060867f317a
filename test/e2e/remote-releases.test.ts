// Releases, canaries and rollbacks of a remote as a person's browser sees them (issue 23, docs/delivery.md):
// a canary goes to the same signed-in person on every load, ends with one command, and a rollback is used on
// the next page load even with the service worker in charge. The store's pointer is put back afterwards, and
// releases are recorded in a scratch file, not in the checkout's releases.json.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canary, canaryOff, pointAt, publish, rollback } from '../../infra/release/remote.js';
import { clearHistory, releaseStoreDir as storeDir, testStore } from '../support/release-store.js';
import { canaryBucket } from '../../frontends/shell/src/remotes/canary.js';
import { accountWithProfile } from './support/market.js';
import { launchBrowser, publicUrl, repoRoot } from './support/browser.js';
import { signInThroughShell } from './support/signIn.js';

const { store, scratch, restore } = testStore('tuber-release-e2e');
const LIVE = '2026.02.01-1111111';
const CANARY = '2026.02.02-2222222';
/** The landing remote as it is, and a build of it that needs shell contract 2 (which no shell provides yet). */
const LANDING_LIVE = '2026.02.03-3333333';
const LANDING_AHEAD = '2026.02.04-4444444';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let accountId: string;

/** The buyer remote's versions this page asked for (its manifest, under /mf/buyer/<version>/). */
async function buyerVersionsOnLoad(url: string): Promise<string[]> {
  const versions = new Set<string>();
  const listener = (request: { url(): string }) => {
    const match = /\/mf\/buyer\/([0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9a-f]+)\/mf-manifest\.json/.exec(request.url());
    if (match) versions.add(match[1]!);
  };
  context.on('request', listener);
  try {
    await page.goto(url);
    await page.getByRole('search').waitFor({ timeout: 30_000 }); // the feed's search form: the buyer remote rendered
  } finally {
    context.off('request', listener);
  }
  return [...versions];
}

beforeAll(async () => {
  clearHistory('buyer'); // put back afterwards with the rest
  clearHistory('landing');
  const dist = path.join(repoRoot, 'frontends/buyer/dist');
  const later = path.join(scratch, 'buyer-later');
  fs.cpSync(dist, later, { recursive: true });
  fs.writeFileSync(path.join(later, 'build-note.txt'), 'the canary build\n');
  for (const version of [LIVE, CANARY]) fs.rmSync(path.join(storeDir, 'buyer', version), { recursive: true, force: true });
  publish(store, 'buyer', dist, 'a'.repeat(40), LIVE);
  publish(store, 'buyer', later, 'b'.repeat(40), CANARY);
  pointAt(store, 'buyer', LIVE);

  const buyer = await accountWithProfile({ role: 'buyer' });
  accountId = buyer.id;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  page = await signInThroughShell(context, buyer);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const version of [LIVE, CANARY]) fs.rmSync(path.join(storeDir, 'buyer', version), { recursive: true, force: true });
  for (const version of [LANDING_LIVE, LANDING_AHEAD]) fs.rmSync(path.join(storeDir, 'landing', version), { recursive: true, force: true });
  restore();
});

describe.sequential('a remote released, canaried and rolled back', () => {
  it('loads the live version for a signed-in buyer', async () => {
    expect(await buyerVersionsOnLoad(`${publicUrl}/dashboard/buyer`)).toEqual([LIVE]);
  });

  it('gives the canary to the same person on every load, and the live version again once it ends', async () => {
    const bucket = canaryBucket(accountId, 'buyer');
    // A share that takes this person in (bucket 0–98); bucket 99 is left out by every share but 100 %.
    if (bucket === 99) return void console.warn('this account falls in the last bucket: no canary share can include it');
    canary(store, 'buyer', CANARY, bucket + 1);
    for (let load = 0; load < 3; load++) expect(await buyerVersionsOnLoad(`${publicUrl}/dashboard/buyer`), `load ${load + 1}`).toEqual([CANARY]);
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'remote-canary-feed-360.png') });
    canaryOff(store, 'buyer');
    expect(await buyerVersionsOnLoad(`${publicUrl}/dashboard/buyer`)).toEqual([LIVE]);
  });

  it('uses a rolled-back version on the next load, with the service worker in charge of the page', async () => {
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 20_000 });
    pointAt(store, 'buyer', CANARY); // released: the next load takes it
    expect(await buyerVersionsOnLoad(`${publicUrl}/dashboard/buyer`)).toEqual([CANARY]);
    expect(rollback(store, 'buyer')).toEqual({ from: CANARY, to: LIVE });
    expect(await buyerVersionsOnLoad(`${publicUrl}/dashboard/buyer`)).toEqual([LIVE]);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  });
});

/**
 * A copy of the landing build whose federation runtime asks for shell contract ^2.0.0, strictly, as a
 * landing built against a contract the live shell does not have yet would (its precompressed copies of
 * the changed files go, so the gateway serves the changed text).
 */
function landingNeedingContract2(): string {
  const ahead = path.join(scratch, 'landing-ahead');
  fs.cpSync(path.join(repoRoot, 'frontends/landing/dist'), ahead, { recursive: true });
  for (const file of ['remoteEntry.js', 'mf-manifest.json']) {
    const full = path.join(ahead, file);
    const text = fs.readFileSync(full, 'utf8');
    const changed = text.replace(/(requiredVersion"?:\s*")\^1\.0\.0"/g, '$1^2.0.0"');
    expect(changed, `${file} names no requiredVersion ^1.0.0`).not.toBe(text);
    fs.writeFileSync(full, changed);
    for (const suffix of ['.gz', '.br']) fs.rmSync(`${full}${suffix}`, { force: true });
  }
  return ahead;
}

describe.sequential('a remote released ahead of the shell’s contract', () => {
  it('shows a guest the "needs a newer page" fallback inside the shell, in their language, and works again once rolled back', async () => {
    publish(store, 'landing', path.join(repoRoot, 'frontends/landing/dist'), 'c'.repeat(40), LANDING_LIVE);
    publish(store, 'landing', landingNeedingContract2(), 'd'.repeat(40), LANDING_AHEAD);
    pointAt(store, 'landing', LANDING_LIVE);
    pointAt(store, 'landing', LANDING_AHEAD);
    const guest = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const view = await guest.newPage();
      await view.goto(`${publicUrl}/`);
      await view.getByRole('heading', { name: 'This part of Tuber Market needs a newer page' }).waitFor({ timeout: 30_000 });
      await view.getByRole('button', { name: 'Reload page' }).waitFor();
      // The shell around it stands: its header and the guest's way in.
      expect(await view.getByRole('banner').getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
      await view.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'remote-contract-ahead-en-360.png') });
      await view.evaluate(() => localStorage.setItem('tuber.locale', 'yo'));
      await view.reload();
      await view.getByRole('heading', { name: 'Apá Tuber Market yìí nílò ojú-ìwé tuntun' }).waitFor({ timeout: 30_000 });
      await view.getByRole('button', { name: 'Tún ojú-ìwé gbé' }).waitFor();
      await view.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'remote-contract-ahead-yo-360.png') });

      expect(rollback(store, 'landing')).toEqual({ from: LANDING_AHEAD, to: LANDING_LIVE });
      await view.evaluate(() => localStorage.setItem('tuber.locale', 'en'));
      await view.reload();
      await view.getByRole('heading', { level: 1, name: 'Fresh from Earth, available within your reach' }).waitFor({ timeout: 30_000 });
    } finally {
      await guest.close();
    }
  }, 120_000);
});
