// Can this service deploy? Each running service verified against its consumers' pacts (issue 23,
// docs/delivery.md): today's, in contracts/pacts/, and the last release's, read from git at the commits in
// releases.json, so the answer needs no broker. Through the gateway, with provider states made through the
// product's own API and a real token in place of the consumer's placeholder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Verifier } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { accountWithProfile, postProduct } from '../e2e/support/market.js';
import type { TestAccount } from '../support/accounts.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gateway = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-pacts-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  /** HTTP pacts have interactions; message pacts (verified in the providers' unit tests) have messages. */
  interactions?: unknown[];
}

/** Today's pacts by provider, and the last release's (its consumer's commit), as files to verify. */
function pactFiles(): { provider: string; label: string; file: string }[] {
  const found: { provider: string; label: string; file: string }[] = [];
  const dir = path.join(root, 'contracts/pacts');
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : []) {
    const file = path.join(dir, name);
    const pact = JSON.parse(fs.readFileSync(file, 'utf8')) as PactFile;
    if (!pact.interactions?.length) continue;
    found.push({ provider: pact.provider.name, label: `today's ${pact.consumer.name}`, file });
    const commit = releases.units[pact.consumer.name]?.commit;
    if (!commit) continue;
    try {
      const text = execFileSync('git', ['-C', root, 'show', `${commit}:contracts/pacts/${name}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const released = path.join(scratch, `${commit.slice(0, 7)}-${name}`);
      fs.writeFileSync(released, text);
      found.push({ provider: pact.provider.name, label: `${pact.consumer.name} ${commit.slice(0, 7)} (last release)`, file: released });
    } catch {
      // The release predates its pact (the first recorded release, 66492ab): nothing of it to verify yet.
    }
  }
  return found;
}

let buyer: TestAccount | undefined;
const buyerToken = async () => (buyer ??= await accountWithProfile({ role: 'buyer' })).accessToken;

/** Provider states: set up through the product's own API; each answers the values its pact injects. */
const stateHandlers = {
  'a product is listed': async () => {
    const farmer = await accountWithProfile({ role: 'farmer', businessName: 'Pact Farms', location: 'Ibadan', tuber: ['yam'] });
    const product = await postProduct(farmer, { product_name: 'Fresh white yam', price: 2000.5, unit: 'heap', unit_weight_kg: 5.5, quantity: 12 });
    return { productId: product.product_id };
  },
};

/** Verifies the provider behind the gateway against one pact file; rejects with every mismatch. */
async function verify(provider: string, file: string): Promise<unknown> {
  const token = await buyerToken();
  return new Verifier({
    provider,
    providerBaseUrl: gateway,
    pactUrls: [file],
    stateHandlers,
    // The consumer's placeholder token becomes a real one; everything else is sent as the pact says.
    requestFilter: (req, _res, next) => {
      req.headers['authorization'] = `Bearer ${token}`;
      next();
    },
    logLevel: 'error',
  }).verifyProvider();
}

describe('services verified against their consumers’ HTTP pacts (today’s and the last release’s)', () => {
  const files = pactFiles();

  it('has pacts to verify', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const { provider, label, file } of files) {
    it(`${provider} honours ${label}`, async () => {
      const output = await verify(provider, file);
      const report = JSON.parse(String(output)) as { result: boolean; interactionResults: { result: string }[] };
      expect(report.result).toBe(true);
      expect(report.interactionResults.length).toBeGreaterThan(0);
      expect(report.interactionResults.every((interaction) => interaction.result === 'OK')).toBe(true);
    }, 180_000);
  }

  it('fails a pact the catalog does not honour (a field it never sends)', async () => {
    const pact = JSON.parse(fs.readFileSync(path.join(root, 'contracts/pacts/buyer-catalog.json'), 'utf8')) as { interactions: { description: string; response: { body: Record<string, unknown> } }[] };
    pact.interactions = pact.interactions.filter((interaction) => interaction.description === 'a product by its id');
    pact.interactions[0]!.response.body.harvest_rating = 5;
    const broken = path.join(scratch, 'buyer-catalog-broken.json');
    fs.writeFileSync(broken, JSON.stringify(pact));
    await expect(verify('catalog', broken)).rejects.toThrow(/harvest_rating/);
  }, 180_000);
});
