// The catalog as an event consumer (issue 23, docs/delivery.md): per producer, the events its handlers
// (src/events/order-stock.ts, src/events/projections.ts) follow, each run through the contract check and,
// where the catalog has one, its own pure rule. contracts/pacts/catalog-<producer>.json must say the same
// (make pacts); the producers are verified against them: orders in its unit tests, the others on the stack.
import { afterAll, describe, expect, it } from 'vitest';
import { AccountDeleted, FarmerProfileChanged, FarmerRatingChanged, ImageRemoved, ImageStored, OrderAccepted, OrderCancelled, ratingOf } from '@tuber/contracts';
import { messagePact } from '../../../../test/support/message-pacts.js';
import { applyStockChange, linesByProduct } from '../../src/domain/order-stock.js';
import { searchTermsOf } from '../../src/domain/search-terms.js';

const farmerId = 'dc0e9496-408c-41bd-a228-f2be3f9b0800';
const imageId = '0b7c9a4e-3f0e-4a53-9a44-2f0d1c7e6b10';
/** A request for 2 heaps of one product, as the stock rule reads it. */
const request = {
  request_id: '43162006-f1b6-4a16-8ebd-358aeea68dd9',
  number: 'TM-1020',
  buyer_id: 'df14b4ab-e129-4ac6-bc8b-a803f22af81b',
  farmer_id: farmerId,
  lines: [{ product_id: '2c9b8c87-101e-4873-8976-f7d03d71235d', unit: 'heap', quantity: 2, price_kobo: 150000 }],
  revision: 2,
  at: '2026-11-28T12:42:16.324Z',
};
const before = { unit: 'heap', quantity: 5, status: 'available' };

describe('pact: catalog ← orders', () => {
  const pact = messagePact('catalog', 'orders');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('takes an accepted request’s lines off the stock', async () => {
    await pact.expect({
      event: OrderAccepted,
      example: request,
      handle: (accepted) => {
        for (const [, lines] of linesByProduct(accepted.lines)) {
          expect(applyStockChange(before, accepted.request_id, 'take', lines)).toMatchObject({ kind: 'change', quantity: 3 });
        }
      },
    });
  });

  it('gives back what an accepted, then cancelled, request took', async () => {
    await pact.expect({
      event: OrderCancelled,
      example: { ...request, revision: 3, reason: 'The buyer no longer needs it', by: 'buyer', was_accepted: true },
      handle: (cancelled) => {
        expect(cancelled.was_accepted).toBe(true);
        for (const [, lines] of linesByProduct(cancelled.lines)) {
          const taken = applyStockChange(before, cancelled.request_id, 'take', lines);
          if (taken.kind !== 'change') throw new Error(`the take did not apply: ${taken.kind}`);
          const after = { unit: 'heap', quantity: taken.quantity, status: taken.status, stock_ops: taken.stock_ops, stock_taken: taken.stock_taken };
          expect(applyStockChange(after, cancelled.request_id, 'give', lines)).toMatchObject({ kind: 'change', quantity: 5 });
        }
      },
    });
  });

  it('copies a farmer’s rating onto the cards: the mean from 3 reviews', async () => {
    await pact.expect({
      event: FarmerRatingChanged,
      example: { farmer_id: farmerId, count: 3, stars_sum: 13, revision: 4, at: '2026-11-29T08:00:00.000Z' },
      handle: (rating) => {
        expect(ratingOf(rating.count, rating.stars_sum)).toEqual({ count: 3, mean: 4.3 });
      },
    });
  });
});

describe('pact: catalog ← profile', () => {
  const pact = messagePact('catalog', 'profile');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('keeps a farmer’s name, place and tubers, and searches by them', async () => {
    await pact.expect({
      event: FarmerProfileChanged,
      example: { farmer_id: farmerId, business_name: 'Ade Farms', location: 'Ibadan', tuber: ['yam'], revision: 2 },
      handle: (farmer) => {
        const words = searchTermsOf({ product_name: 'Fresh yam', description: '', tuber_type: 'yam', business_name: farmer.business_name, location: farmer.location });
        expect(words.location_terms).toContain('ibadan');
        expect(words.search_terms).toContain('ade');
      },
    });
  });
});

describe('pact: catalog ← media', () => {
  const pact = messagePact('catalog', 'media');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('records a stored photo that its farmer may post', async () => {
    await pact.expect({
      event: ImageStored,
      example: {
        image_id: imageId,
        farmer_id: farmerId,
        url: `/files/images/${imageId}.webp`,
        card_url: `/files/images/${imageId}-card.webp`,
        thumb_url: `/files/images/${imageId}-thumb.webp`,
        stored_at: '2026-11-28T12:40:00.000Z',
      },
    });
  });

  it('marks a removed photo so that it can no longer be posted', async () => {
    await pact.expect({
      event: ImageRemoved,
      example: { image_id: imageId, farmer_id: farmerId, reason: 'product-deleted', removed_at: '2026-11-28T12:45:00.000Z' },
    });
  });
});

describe('pact: catalog ← auth', () => {
  const pact = messagePact('catalog', 'auth');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('takes a deleted account’s products down', async () => {
    await pact.expect({
      event: AccountDeleted,
      example: { user_id: farmerId, deleted_at: '2026-11-28T12:50:00.000Z' },
      handle: (deleted) => expect(Number.isNaN(new Date(deleted.deleted_at).getTime())).toBe(false),
    });
  });
});
