// The orders service as a message provider (issue 23, docs/delivery.md): its own event builder
// (src/domain/order-events.ts) verified against its consumers' message pacts, today's in contracts/pacts/ and
// the last release's from git (releases.json), so "can orders deploy?" needs no broker and no NATS.
import fs from 'node:fs';
import path from 'node:path';
import { MessageProviderPact, providerWithMetadata } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { FarmerRatingChanged, OrderAccepted, OrderCancelled } from '@tuber/contracts';
import { pactScratch, pactsOf } from '../../../../test/support/pact-files.js';
import { orderEvent, type EventSource } from '../../src/domain/order-events.js';
import { ratingEvent } from '../../src/reviews/rating-event.js';

const scratch = pactScratch();
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A request for 2 heaps as the orders service stores it, accepted in full. */
const request: EventSource = {
  request_id: '43162006-f1b6-4a16-8ebd-358aeea68dd9',
  number: 'TM-1020',
  buyer_id: 'df14b4ab-e129-4ac6-bc8b-a803f22af81b',
  farmer_id: 'dc0e9496-408c-41bd-a228-f2be3f9b0800',
  lines: [{ product_id: '2c9b8c87-101e-4873-8976-f7d03d71235d', product_name: 'Fresh white yam', unit: 'heap', quantity: 2, accepted_quantity: 2, price_kobo: 150000 }],
};
const accepted = orderEvent(request, 2, new Date('2026-11-28T12:42:16.324Z'), { status: 'accepted' });
const cancelled = orderEvent(request, 3, new Date('2026-11-28T12:50:00.000Z'), { status: 'cancelled', reason: 'No longer needed', by: 'buyer', wasAccepted: true });

const rating = ratingEvent(request.farmer_id, 3, 13, 4, new Date('2026-11-29T08:00:00.000Z'));

const message = (event: typeof accepted) => providerWithMetadata(() => event.payload as Record<string, unknown>, { subject: event.subject });
/** Each event the consumers' pacts name (by subject), as the builder makes it. */
const messageProviders = {
  ...Object.fromEntries([accepted, cancelled, rating].map((event) => [event.subject, message(event)])),
  // The name the catalog's pact of release 0d5ba38 gives the accepted event (before pacts named events by
  // subject): answered while a released consumer still asks for it.
  'an order request accepted': message(accepted),
};
const verify = (file: string) => new MessageProviderPact({ provider: 'orders', pactUrls: [file], messageProviders, logLevel: 'error' }).verify();

describe('orders as a message provider', () => {
  it('publishes on the contracts’ subjects', () => {
    expect([accepted.subject, cancelled.subject, rating.subject]).toEqual([OrderAccepted.subject, OrderCancelled.subject, FarmerRatingChanged.subject]);
  });

  const pacts = pactsOf('orders', 'message', scratch);
  it('has consumers’ pacts to honour', () => expect(pacts.length).toBeGreaterThan(0));
  for (const { label, file } of pacts) {
    it(`honours ${label}`, async () => {
      await verify(file);
    }, 60_000);
  }

  it('fails a pact its events do not meet (the check can fail)', async () => {
    const broken = path.join(scratch, 'broken.json');
    const pact = JSON.parse(fs.readFileSync(pacts[0]!.file, 'utf8'));
    pact.messages[0].contents.delivery_day = '2026-12-01'; // a field the builder never sends
    pact.messages[0].matchingRules.body['$.delivery_day'] = { matchers: [{ match: 'type' }] };
    fs.writeFileSync(broken, JSON.stringify(pact));
    await expect(verify(broken)).rejects.toBeTruthy();
  }, 60_000);
});
