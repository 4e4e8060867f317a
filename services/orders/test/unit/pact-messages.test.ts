// The orders service as a message provider (issue 23, docs/delivery.md): its own event builder
// (src/domain/order-events.ts) verified against its consumers' message pacts, today's in contracts/pacts/ and
// the last release's from git (releases.json), so "can orders deploy?" needs no broker and no NATS.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageProviderPact, providerWithMetadata } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderAccepted } from '@tuber/contracts';
import { orderEvent } from '../../src/domain/order-events.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-message-pacts-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** An accepted request as the orders service stores it: 2 heaps asked, 2 accepted. */
const accepted = orderEvent(
  {
    request_id: '43162006-f1b6-4a16-8ebd-358aeea68dd9',
    number: 'TM-1020',
    buyer_id: 'df14b4ab-e129-4ac6-bc8b-a803f22af81b',
    farmer_id: 'dc0e9496-408c-41bd-a228-f2be3f9b0800',
    lines: [{ product_id: '2c9b8c87-101e-4873-8976-f7d03d71235d', product_name: 'Fresh white yam', unit: 'heap', quantity: 2, accepted_quantity: 2, price_kobo: 150000 }],
  },
  2,
  new Date('2026-11-28T12:42:16.324Z'),
  { status: 'accepted' },
);

const messageProviders = {
  'an order request accepted': providerWithMetadata(() => accepted.payload as Record<string, unknown>, { subject: accepted.subject }),
};

/** The consumers' pacts with orders as provider: today's, then each consumer's last release's where it has one. */
function pacts(): { label: string; file: string }[] {
  const dir = path.join(root, 'contracts/pacts');
  const found: { label: string; file: string }[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const pact = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { consumer: { name: string }; provider: { name: string } };
    if (pact.provider.name !== 'orders') continue;
    found.push({ label: `today's ${pact.consumer.name}`, file: path.join(dir, name) });
    const commit = releases.units[pact.consumer.name]?.commit;
    try {
      const text = execFileSync('git', ['-C', root, 'show', `${commit}:contracts/pacts/${name}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      fs.writeFileSync(path.join(scratch, name), text);
      found.push({ label: `${pact.consumer.name} ${commit!.slice(0, 7)} (last release)`, file: path.join(scratch, name) });
    } catch {
      // The consumer's release predates its pact (the first recorded release): nothing of it to verify yet.
    }
  }
  return found;
}

describe('orders as a message provider', () => {
  it('publishes accepted requests on the contract’s subject', () => {
    expect(accepted.subject).toBe(OrderAccepted.subject);
  });

  for (const { label, file } of pacts()) {
    it(`honours ${label}`, async () => {
      await new MessageProviderPact({ provider: 'orders', pactUrls: [file], messageProviders, logLevel: 'error' }).verify();
    }, 60_000);
  }

  it('fails a pact its events do not meet (the check can fail)', async () => {
    const broken = path.join(scratch, 'broken.json');
    const pact = JSON.parse(fs.readFileSync(path.join(root, 'contracts/pacts/catalog-orders.json'), 'utf8'));
    pact.messages[0].contents.delivery_day = '2026-12-01'; // a field the builder never sends
    pact.messages[0].matchingRules = { body: { '$.delivery_day': { matchers: [{ match: 'type' }] } } };
    fs.writeFileSync(broken, JSON.stringify(pact));
    await expect(new MessageProviderPact({ provider: 'orders', pactUrls: [broken], messageProviders, logLevel: 'error' }).verify()).rejects.toBeTruthy();
  }, 60_000);
});
