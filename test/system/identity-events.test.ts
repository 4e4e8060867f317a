// The identity events' consumers (docs/adr/0021) are idempotent and never go backwards: events
// published here directly, as the auth service would, to the running profile and catalog services.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import mongoose from 'mongoose';
import { AccountDeleted, AccountEmailChanged, FarmerProfileChanged } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { api, eventually } from '../support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { serviceEnv } from '../support/env.js';

let bus: EventBus;
let catalog: mongoose.Connection;
let buyer: TestAccount;
let marker: TestAccount;

beforeAll(async () => {
  bus = await EventBus.connect(serviceEnv('auth').NATS_URL!, 'identity-events-test', pino({ level: 'silent' }));
  catalog = await mongoose.createConnection(serviceEnv('catalog').MONGO_URL!).asPromise();
  [buyer, marker] = await Promise.all([signedInAccount({ role: 'buyer' }), signedInAccount({ role: 'buyer' })]);
  for (const account of [buyer, marker]) expect((await api('POST', '/api/profile/me', { token: account.accessToken })).status).toBe(201);
});
afterAll(async () => {
  await bus?.close();
  await catalog?.close();
  await Promise.all([buyer, marker].filter(Boolean).map((account) => deleteAccount(account.id)));
});

const address = (what: string) => `${what}-${randomUUID().slice(0, 8)}@test.tuber.local`;
const emailChanged = (userId: string, email: string, verified: boolean, at: Date) =>
  bus.publish(
    AccountEmailChanged,
    { user_id: userId, email, email_verified: verified, changed_at: at.toISOString() },
    `test:${randomUUID()}`,
  );
const profileEmail = async (account: TestAccount) => (await api('GET', '/api/profile/me', { token: account.accessToken })).body.email;

describe('the profile service (running) consuming e-mail changes', () => {
  it('takes a verified address once, and never an unverified, older or repeated one', async () => {
    const now = Date.now();
    const current = address('current');
    await emailChanged(buyer.id, current, true, new Date(now));
    const first = await eventually(
      () => profileEmail(buyer),
      (email) => email === current,
    );
    expect(first).toBe(current);

    await emailChanged(buyer.id, address('older'), true, new Date(now - 60_000)); // delivered late
    await emailChanged(buyer.id, address('unverified'), false, new Date(now + 1_000));
    await emailChanged(buyer.id, current, true, new Date(now)); // delivered twice
    // The consumer handles one event after another: once the marker's change shows, the others were handled.
    const markerAddress = address('marker');
    await emailChanged(marker.id, markerAddress, true, new Date(now + 2_000));
    expect(
      await eventually(
        () => profileEmail(marker),
        (email) => email === markerAddress,
      ),
    ).toBe(markerAddress);
    expect(await profileEmail(buyer)).toBe(current);
  });
});

describe('the catalog service (running) consuming account deletions', () => {
  it('removes the farmer once, whether the deletion comes twice, and a late farmer change does not bring it back', async () => {
    const farmerId = `farmer-${randomUUID()}`;
    const farmers = catalog.collection('farmer');
    await bus.publish(
      FarmerProfileChanged,
      { farmer_id: farmerId, business_name: 'Farm 1', location: 'Ibadan', tuber: ['yam'], revision: 1 },
      `test:${farmerId}:1`,
    );
    expect(
      await eventually(
        () => farmers.countDocuments({ farmer_id: farmerId }),
        (count) => count === 1,
      ),
    ).toBe(1);

    for (let i = 0; i < 2; i++) {
      await bus.publish(AccountDeleted, { user_id: farmerId, deleted_at: new Date().toISOString() }, `test:${randomUUID()}`);
    }
    expect(
      await eventually(
        () => farmers.countDocuments({ farmer_id: farmerId }),
        (count) => count === 0,
      ),
    ).toBe(0);
    expect(await catalog.collection('removed_farmer').countDocuments({ farmer_id: farmerId })).toBe(1);

    await bus.publish(
      FarmerProfileChanged,
      { farmer_id: farmerId, business_name: 'Farm 2', location: 'Ibadan', tuber: ['yam'], revision: 2 },
      `test:${farmerId}:2`,
    );
    // The same consumer handles one change after another: once a marker farmer shows, the late change was handled.
    const markerId = `farmer-${randomUUID()}`;
    await bus.publish(
      FarmerProfileChanged,
      { farmer_id: markerId, business_name: 'Marker', location: 'Oyo', tuber: ['yam'], revision: 1 },
      `test:${markerId}:1`,
    );
    expect(
      await eventually(
        () => farmers.countDocuments({ farmer_id: markerId }),
        (count) => count === 1,
      ),
    ).toBe(1);
    expect(await farmers.countDocuments({ farmer_id: farmerId })).toBe(0);
  });
});
