// The orders service as an event consumer (issue 23, docs/delivery.md): the copies it keeps of products,
// contacts, languages and where a farmer's SMS alerts go (src/events/projections.ts), per producer. contracts/pacts/orders-<producer>.json must
// say the same (make pacts); test/system/pact-messages.test.ts verifies the running producers against them.
import { afterAll, describe, expect, it } from 'vitest';
import {
  AccountDeleted,
  AccountEmailChanged,
  FarmerProfileChanged,
  FarmerSmsAlertsChanged,
  localeOf,
  ProductChanged,
  ProductCreated,
  ProductDeleted,
  ProfileCreated,
} from '@tuber/contracts';
import { messagePact } from '../../../../test/support/message-pacts.js';

const farmerId = 'dc0e9496-408c-41bd-a228-f2be3f9b0800';
const product = { product_id: '2c9b8c87-101e-4873-8976-f7d03d71235d', farmer_id: farmerId };

describe('pact: orders ← catalog', () => {
  const pact = messagePact('orders', 'catalog');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('keeps what a request needs of a new product: name, price, unit, stock, status', async () => {
    await pact.expect({
      event: ProductCreated,
      example: { ...product, image_ids: [], created_at: '2026-11-28T12:40:00.000Z', product_name: 'Fresh white yam', price_kobo: 150000, unit: 'heap', quantity: 12, status: 'available', revision: 1 },
      reads: ['product_name', 'price_kobo', 'unit', 'quantity', 'status', 'revision'],
      handle: (created) => expect(created.price_kobo).toBe(150000),
    });
  });

  const changed = {
    ...product,
    revision: 2,
    changed: ['price'],
    price_kobo: 140000,
    unit: 'heap',
    quantity: 12,
    status: 'available',
    image_ids: [],
    removed_image_ids: [],
    changed_at: '2026-11-28T12:41:00.000Z',
    product_name: 'Fresh white yam',
  };

  it('follows a farmer’s edit of a product', async () => {
    await pact.expect({ event: ProductChanged, example: changed, reads: ['product_name'], handle: (edit) => expect(edit.price_kobo).toBe(140000) });
  });

  it('remembers the takes the catalog applied to a product’s stock', async () => {
    await pact.expect({
      event: ProductChanged,
      state: 'an accepted request took stock',
      example: { ...changed, revision: 3, changed: ['stock'], price_kobo: 150000, quantity: 10, stock_ops: ['43162006-f1b6-4a16-8ebd-358aeea68dd9:take'] },
      reads: ['product_name', 'stock_ops'],
      handle: (changed) => expect((changed.stock_ops ?? []).filter((op) => op.endsWith(':take'))).toHaveLength(1),
    });
  });

  it('stops requests for a deleted product', async () => {
    await pact.expect({ event: ProductDeleted, example: { ...product, image_ids: [], deleted_at: '2026-11-28T12:42:00.000Z' } });
  });
});

describe('pact: orders ← profile', () => {
  const pact = messagePact('orders', 'profile');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('keeps a new account’s address and kind, for its mails', async () => {
    await pact.expect({
      event: ProfileCreated,
      example: { user_id: farmerId, email: 'Ade.Farms@example.test', user_type: 'farmer', created_at: '2026-11-28T12:30:00.000Z' },
      handle: (created) => expect(created.email.toLowerCase()).toBe('ade.farms@example.test'),
    });
  });

  it('keeps a farmer’s business name, by revision', async () => {
    await pact.expect({
      event: FarmerProfileChanged,
      example: { farmer_id: farmerId, business_name: 'Ade Farms', location: 'Ibadan', tuber: ['yam'], revision: 2 },
    });
  });

  // Issue 26: where a farmer's new-request SMS alerts go, by revision: a verified number, or nowhere (null).
  it('sends a farmer’s new-request alerts to the verified number', async () => {
    await pact.expect({
      event: FarmerSmsAlertsChanged,
      example: { farmer_id: farmerId, sms_to: '2348091234567', revision: 1 },
      handle: (alerts) => expect(alerts.sms_to).toBe('2348091234567'),
    });
  });

  it('stops a farmer’s alerts when they are switched off', async () => {
    await pact.expect({
      event: FarmerSmsAlertsChanged,
      state: 'a farmer switched the SMS alerts off',
      example: { farmer_id: farmerId, sms_to: null, revision: 2 },
      handle: (alerts) => expect(alerts.sms_to).toBeNull(),
    });
  });
});

describe('pact: orders ← auth', () => {
  const pact = messagePact('orders', 'auth');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('follows an account’s address and language', async () => {
    await pact.expect({
      event: AccountEmailChanged,
      example: { user_id: farmerId, email: 'ade@example.test', email_verified: true, changed_at: '2026-11-28T12:35:00.000Z', locale: 'yo' },
      reads: ['locale'],
      handle: (changed) => expect(localeOf(changed.locale)).toBe('yo'),
    });
  });

  it('forgets a deleted account’s address', async () => {
    await pact.expect({ event: AccountDeleted, example: { user_id: farmerId, deleted_at: '2026-11-28T12:50:00.000Z' } });
  });
});
