// Any part ships alone (issue 23, docs/delivery.md): the smoke journeys through the gateway with the last
// released shell and today's remotes, then with today's shell and the last released remotes. "The last
// release" is releases.json; its front ends are built from git history once per commit
// (infra/release/build-frontends.sh, cached under ~/.cache/tuber/releases/). They go live as a deploy would:
// the shell served on its port, the remotes released into the release store and named by its remotes.json
// (served at /mf/<name>/<version>/). Every journey fails on a console error, a page error, a missing
// translation key or a remote's fallback. The matrix is written to test-artifacts/version-skew.json. The
// store's pointer is put back afterwards, and releases.json is not touched. A remote with no release yet (the
// moderation desk until its first `make release-remote`) is today's build in both directions.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointAt, publish } from '../../infra/release/remote.js';
import { frontendUnit } from '../../infra/release/unit-versions.js';
import { releaseStoreDir as storeDir, testStore } from '../support/release-store.js';
import { artifactsDir, launchBrowser, publicUrl, repoRoot } from './support/browser.js';
import { guestLanding, runMarketJourneys } from './support/journeys.js';
import { serveFrontEnd, type FrontEnd } from './support/processes.js';

const REMOTES = ['landing', 'buyer', 'farmer', 'moderation'] as const;
const releases = JSON.parse(fs.readFileSync(path.join(repoRoot, 'releases.json'), 'utf8')) as {
  units: Record<string, { version: string; commit: string }>;
};
/** A front end's last release (releases.json names the moderation desk's unit moderation-ui), if it has one. */
const releaseOf = (name: FrontEnd) => releases.units[frontendUnit(name)];
const RELEASED_REMOTES = REMOTES.filter((remote) => releaseOf(remote));

/** The released builds of `names`, by name (each commit's front ends built together the first time, then cached). */
function releasedBuilds(names: readonly FrontEnd[]): Map<FrontEnd, string> {
  const byCommit = new Map<string, FrontEnd[]>();
  for (const name of names) byCommit.set(releaseOf(name)!.commit, [...(byCommit.get(releaseOf(name)!.commit) ?? []), name]);
  const builds = new Map<FrontEnd, string>();
  for (const [commit, unitNames] of byCommit) {
    const output = execFileSync('bash', [path.join(repoRoot, 'infra/release/build-frontends.sh'), commit, ...unitNames], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 600_000,
    });
    for (const name of unitNames) builds.set(name, path.join(output.trim().split('\n').pop()!, name));
  }
  return builds;
}

/** The shell's first script as a build names it, to check which shell the gateway serves. */
function mainScriptOf(indexHtml: string): string {
  const found = /main\.[0-9a-f]+\.js/.exec(indexHtml);
  if (!found) throw new Error('the shell page names no main script');
  return found[0];
}

const matrix: { direction: string; journey: string; result: 'pass' | 'fail'; ms: number }[] = [];

/** Runs a journey and records it in the matrix, pass or fail. */
async function journey(direction: string, name: string, run: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  try {
    await run();
    matrix.push({ direction, journey: name, result: 'pass', ms: Date.now() - started });
  } catch (error) {
    matrix.push({ direction, journey: name, result: 'fail', ms: Date.now() - started });
    throw error;
  }
}

let browser: Browser;
let builds: Map<FrontEnd, string>;

// The release store the gateway serves, its pointer put back afterwards (test/support/release-store.ts).
const { store, restore } = testStore('tuber-skew');
const POINTER_FILES = ['remotes.json', 'history.json'];

beforeAll(async () => {
  builds = releasedBuilds(['shell', ...RELEASED_REMOTES]);
  browser = await launchBrowser();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  // Today's shell and the store's own pointer back, whatever happened above.
  await serveFrontEnd('shell');
  restore();
  fs.mkdirSync(artifactsDir, { recursive: true });
  fs.writeFileSync(path.join(artifactsDir, 'version-skew.json'), `${JSON.stringify({ releases: releases.units, matrix }, null, 2)}\n`);
}, 120_000);

describe.sequential("the last released shell with today's remotes", () => {
  const direction = `shell ${releases.units.shell!.version} + today's remotes`;
  beforeAll(async () => {
    // Today's remotes: this checkout's builds, at their unversioned prefixes (no release in the pointer).
    for (const file of POINTER_FILES) fs.rmSync(path.join(storeDir, file), { force: true });
    for (const remote of REMOTES) await serveFrontEnd(remote);
    await serveFrontEnd('shell', builds.get('shell'));
    const served = await (await fetch(`${publicUrl}/`)).text();
    expect(mainScriptOf(served), 'the gateway serves the released shell').toBe(mainScriptOf(fs.readFileSync(path.join(builds.get('shell')!, 'index.html'), 'utf8')));
  }, 120_000);

  it("a guest's landing page", () => journey(direction, 'guest landing', () => guestLanding(browser)));

  it('buyer: feed, search, product, cart, request sent; farmer: add product, inbox, accept', () =>
    journey(direction, 'buyer and farmer', () => runMarketJourneys(browser)));
});

describe.sequential("today's shell with the last released remotes", () => {
  const direction = `today's shell + remotes ${REMOTES.map((r) => releaseOf(r)?.version ?? `${r} today's`).join(', ')}`;
  beforeAll(async () => {
    await serveFrontEnd('shell');
    // The released remotes go live as a release does: into the store under their version, named by remotes.json.
    // One not released yet stays at its unversioned prefix (the pointer names it there), served by today's build.
    for (const remote of RELEASED_REMOTES) {
      const { version, commit } = releaseOf(remote)!;
      publish(store, remote, builds.get(remote)!, commit, version);
      pointAt(store, remote, version);
    }
    const live = (await (await fetch(`${publicUrl}/remotes.json`)).json()) as { name: string; entry: string }[];
    const buyer = live.find((item) => item.name === 'buyer')!;
    expect(buyer.entry).toBe(`/mf/buyer/${releases.units.buyer!.version}/mf-manifest.json`);
    for (const remote of REMOTES.filter((r) => !releaseOf(r)))
      expect(live.find((item) => item.name === remote)?.entry, `${remote}, not released yet`).toBe(`/mf/${remote}/mf-manifest.json`);
    const manifest = await (await fetch(`${publicUrl}${buyer.entry}`)).text();
    expect(manifest, 'the gateway serves the released buyer remote').toBe(fs.readFileSync(path.join(builds.get('buyer')!, 'mf-manifest.json'), 'utf8'));
  }, 120_000);

  it("a guest's landing page", () => journey(direction, 'guest landing', () => guestLanding(browser)));

  it('buyer: feed, search, product, cart, request sent; farmer: add product, inbox, accept', () =>
    journey(direction, 'buyer and farmer', () => runMarketJourneys(browser)));
});
