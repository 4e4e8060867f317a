// A farmer's contact in the orders service is written by several consumers (ProfileCreated: the type and the
// address, FarmerProfileChanged: the business name, AccountEmailChanged, AccountDeleted) and by a send (the
// buyer's address). FerretDB 1.x applies each update as a read of the whole document and a write of it back,
// so two handled at the same moment can put back each other's fields as they were. CI saw it once: a farmer's
// contact with the address but no name (business_revision 0) although FarmerProfileChanged had been published
// 7 ms after ProfileCreated, and the order e-mails then said "the farmer". Every write of a contact now takes
// its lock (orders:lock:contact:<user_id>, ADR 0035). This test sends the three sign-up events of 30 new
// farmers at once and finds every name, address and type kept. It is a regression check, not a proof: the
// race is rare, and this test also passed on the code before the lock.
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountEmailChanged, FarmerProfileChanged, ProfileCreated } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { eventually } from '../../../../test/support/api.js';
import { mongoUrl, natsUrl } from '../../../../test/support/credentials.js';

const FARMERS = 30;
let bus: EventBus;
let orders: mongoose.Connection;
const ids = Array.from({ length: FARMERS }, () => `contacts-race-${randomUUID()}`);

beforeAll(async () => {
  bus = await EventBus.connect(natsUrl(), 'orders-contacts-race-test', pino({ level: 'silent' }));
  orders = await mongoose.createConnection(mongoUrl('orders')).asPromise();
});

afterAll(async () => {
  await orders?.collection('contacts').deleteMany({ user_id: { $in: ids } }).catch(() => undefined);
  await orders?.close();
  await bus?.close();
});

describe("a farmer's contact written by two events at once", () => {
  it('keeps both the address and the business name of every farmer', async () => {
    const createdAt = new Date().toISOString();
    // And the account's language a moment later (the auth relay's AccountEmailChanged, as a farmer choosing Yoruba
    // right after signing up): three consumers on one contact at once.
    const changedAt = new Date(Date.now() + 1000).toISOString();
    await Promise.all(
      ids.flatMap((id, i) => [
        bus.publish(ProfileCreated, { user_id: id, email: `${id}@farm.test`, user_type: 'farmer', created_at: createdAt }, `race:created:${id}`),
        bus.publish(
          FarmerProfileChanged,
          { farmer_id: id, business_name: `Race Farm ${i}`, location: 'Ibadan', tuber: ['yam'], revision: 1 },
          `race:changed:${id}`,
        ),
        bus.publish(
          AccountEmailChanged,
          { user_id: id, email: `${id}@farm.test`, email_verified: true, changed_at: changedAt, locale: 'yo' },
          `race:email:${id}`,
        ),
      ]),
    );
    const contacts = await eventually(
      () => orders.collection('contacts').find({ user_id: { $in: ids } }).toArray(),
      (docs) => docs.length === FARMERS && docs.every((doc) => doc.business_name && doc.email && doc.user_type === 'farmer'),
      30_000,
    );
    const incomplete = contacts.filter((doc) => !doc.business_name || !doc.email || doc.user_type !== 'farmer').map((doc) => doc.user_id as string);
    expect(incomplete, `${incomplete.length} of ${FARMERS} contacts lost a field`).toEqual([]);
    expect(contacts).toHaveLength(FARMERS);
    for (const [i, id] of ids.entries()) {
      const doc = contacts.find((c) => c.user_id === id)!;
      expect(doc.business_name).toBe(`Race Farm ${i}`);
      expect(doc.email).toBe(`${id}@farm.test`);
    }
  });
});
