// Message pact (issue 23, docs/delivery.md): what the catalog, as a consumer of the orders service's
// `orders.request.accepted` event, needs of it, run through its own contract check and its stock rule.
// contracts/pacts/catalog-orders.json must say the same (make pacts); services/orders/test/unit/pact-messages.test.ts verifies the
// orders service's own event builder against it (and against the last release's pact).
import { MatchersV3, MessageConsumerPact, synchronousBodyHandler } from '@pact-foundation/pact';
import { Value } from '@sinclair/typebox/value';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderAccepted, type EventPayload } from '@tuber/contracts';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { applyStockChange } from '../../src/domain/order-stock.js';

const { eachLike, string, integer, number, regex } = MatchersV3;
const dir = pactDir();
afterAll(() => expect(pactDrift(dir, 'catalog-orders.json')).toBeNull());

describe('pact: catalog ← orders (orders.request.accepted)', () => {
  it('takes an accepted request’s lines off the product’s stock', async () => {
    const pact = new MessageConsumerPact({ consumer: 'catalog', provider: 'orders', dir, logLevel: 'error' });
    await pact
      .given('a request for 2 heaps was accepted')
      .expectsToReceive('an order request accepted')
      .withContent({
        request_id: string('43162006-f1b6-4a16-8ebd-358aeea68dd9'),
        number: regex('TM-\\d+', 'TM-1020'),
        buyer_id: string('df14b4ab-e129-4ac6-bc8b-a803f22af81b'),
        farmer_id: string('dc0e9496-408c-41bd-a228-f2be3f9b0800'),
        lines: eachLike({ product_id: string('2c9b8c87-101e-4873-8976-f7d03d71235d'), unit: string('heap'), quantity: number(2), price_kobo: integer(150000) }),
        revision: integer(2),
        at: regex('\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z', '2026-11-28T12:42:16.324Z'),
      })
      .withMetadata({ subject: OrderAccepted.subject })
      .verify(
        synchronousBodyHandler((event: unknown) => {
          // What the catalog's consumer does first (services/kit/src/events.ts): an event its contract refuses is parked.
          expect(Value.Check(OrderAccepted.payload, event)).toBe(true);
          const accepted = event as EventPayload<typeof OrderAccepted>;
          const outcome = applyStockChange({ unit: 'heap', quantity: 5, status: 'available' }, accepted.request_id, 'take', accepted.lines);
          expect(outcome).toMatchObject({ kind: 'change', quantity: 3 });
        }),
      );
  });
});
