// The media service as an event consumer (issue 23, docs/delivery.md): the catalog's product events decide
// which photos stay (src/events/product-images.ts). contracts/pacts/media-catalog.json must say the same (make
// pacts); test/system/pact-messages.test.ts verifies the running catalog's events against it.
import { afterAll, describe, expect, it } from 'vitest';
import { ProductChanged, ProductCreated, ProductDeleted } from '@tuber/contracts';
import { messagePact } from '../../../../test/support/message-pacts.js';

const product = { product_id: '2c9b8c87-101e-4873-8976-f7d03d71235d', farmer_id: 'dc0e9496-408c-41bd-a228-f2be3f9b0800' };
const photos = ['0b7c9a4e-3f0e-4a53-9a44-2f0d1c7e6b10', '5e2f1d3c-8a4b-4c6d-9e0f-1a2b3c4d5e6f'];

describe('pact: media ← catalog', () => {
  const pact = messagePact('media', 'catalog');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('attaches a new product’s photos', async () => {
    await pact.expect({
      event: ProductCreated,
      example: { ...product, image_ids: photos, created_at: '2026-11-28T12:40:00.000Z' },
      handle: (created) => expect(created.image_ids.length).toBeGreaterThan(0),
    });
  });

  it('removes the photos an edit took off, and keeps the others', async () => {
    await pact.expect({
      event: ProductChanged,
      example: {
        ...product,
        revision: 2,
        changed: ['images'],
        price_kobo: 150000,
        unit: 'heap',
        quantity: 12,
        status: 'available',
        image_ids: [photos[0]!],
        removed_image_ids: [photos[1]!],
        changed_at: '2026-11-28T12:41:00.000Z',
      },
      handle: (changed) => {
        const kept = new Set(changed.image_ids);
        expect(changed.removed_image_ids.filter((id) => !kept.has(id))).toEqual([photos[1]]);
      },
    });
  });

  it('removes a deleted product’s photos', async () => {
    await pact.expect({
      event: ProductDeleted,
      example: { ...product, image_ids: photos, deleted_at: '2026-11-28T12:42:00.000Z' },
    });
  });
});
