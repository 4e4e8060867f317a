// PATCH /api/profile/me through the gateway against the running services (issue 11): what a farmer and a
// buyer may change, in which shape, what is refused (mass assignment, a bad phone, a buyer's farm fields,
// no token), and a farmer who ticked no tubers at sign-up who adds one and can then post it — the catalog
// learns it through FarmerProfileChanged.
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { BUYER_FARM_FIELDS_PROBLEM, EMAIL_PROBLEM, NOTHING_TO_CHANGE, PHONE_PROBLEM } from '../../src/domain/profile-change.js';

let farmer: TestAccount;
let buyer: TestAccount;
/** The catalog's own database: its projection of farmers, to time how soon a change arrives. */
let catalog: mongoose.Connection;
/** The profile service's own database, for the stored revision. */
let profiles: mongoose.Connection;
beforeAll(async () => {
  catalog = await mongoose.createConnection(mongoUrl('catalog')).asPromise();
  profiles = await mongoose.createConnection(mongoUrl('profile')).asPromise();
  [farmer, buyer] = await Promise.all([signedInAccount({ role: 'farmer', tuber: [] }), signedInAccount({ role: 'buyer' })]);
  for (const account of [farmer, buyer]) expect((await api('POST', '/api/profile/me', { token: account.accessToken })).status).toBe(201);
});
afterAll(async () => {
  await catalog?.close();
  await profiles?.close();
  await Promise.all([farmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const change = (account: TestAccount | undefined, json: unknown) => api('PATCH', '/api/profile/me', { token: account?.accessToken, json });
const mine = async (account: TestAccount) => (await api('GET', '/api/profile/me', { token: account.accessToken })).body;

/** A post the catalog refuses for its (unknown) photos once it accepts the tuber type, and for the tuber before. */
const probe = (token: string) =>
  api('POST', '/api/catalog/products', {
    token,
    json: {
      product_name: 'probe',
      description: 'probe',
      price: 1,
      quantity: 1,
      unit: 'kg',
      tuber_type: 'yam',
      image_ids: ['none-1', 'none-2'],
      cultural: 'probe',
    },
  });

describe('a farmer changes the profile', () => {
  it('starts with no tubers (sign-up has no minimum) and the catalog refuses a yam', async () => {
    expect((await mine(farmer)).tuber).toEqual([]);
    const refused = await eventually(
      () => probe(farmer.accessToken),
      (a) => a.status !== 409, // 409 until the catalog has the farmer at all
      20_000,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Choose a tuber type you grow (none yet).');
  });

  it('adds yam, and the catalog accepts a yam post soon after (FarmerProfileChanged)', async () => {
    const answer = await change(farmer, { tuber: ['yam'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ user_type: 'farmer', tuber: ['yam'] });
    const started = Date.now();
    const projection = await eventually(
      () => catalog.collection('farmer').findOne({ farmer_id: farmer.id }),
      (f) => Array.isArray(f?.tuber) && f.tuber.includes('yam'),
      10_000,
    );
    const arrivedMs = Date.now() - started;
    console.info(`the catalog's projection had the new tuber ${arrivedMs} ms after the profile answered`);
    expect(projection?.revision).toBe(2);
    // Past the tuber rule: now only the made-up photos are refused.
    const accepted = await probe(farmer.accessToken);
    expect(accepted.status).toBe(400);
    expect(accepted.body.message).not.toMatch(/tuber/i);
  });

  it('changes business name, location, phone and tubers in one go, tidied', async () => {
    const answer = await change(farmer, {
      business_name: '  Ada   & Sons Farms ',
      location: 'Moniya, Ibadan',
      phone: '+234 803 123 4567',
      tuber: ['ginger', 'yam', 'cassava'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      business_name: 'Ada & Sons Farms',
      location: 'Moniya, Ibadan',
      phone: '2348031234567',
      tuber: ['yam', 'cassava', 'ginger'],
    });
    expect(await mine(farmer)).toMatchObject({ business_name: 'Ada & Sons Farms', tuber: ['yam', 'cassava', 'ginger'] });
  });

  it('may tick every tuber off again (zero is allowed)', async () => {
    expect((await change(farmer, { tuber: [] })).body.tuber).toEqual([]);
    expect((await change(farmer, { tuber: ['yam'] })).body.tuber).toEqual(['yam']);
  });

  it('refuses a tuber that is not one of the seven, and one twice', async () => {
    for (const tuber of [['plantain'], ['yam', 'yam']]) {
      const answer = await change(farmer, { tuber });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(
        'Choose the tubers you grow from: yam, cassava, potato, sweet potato, tumeric, garlic, ginger (each at most once).',
      );
    }
  });
});

describe('changes at the same moment (the profile lock, ADR 0035)', () => {
  it('applies ten simultaneous changes one after another: each its own revision, the catalog ends on the last', async () => {
    const stored = () => profiles.collection('farmer').findOne({ user_id: farmer.id });
    const before = (await stored())!.revision as number;
    const names = Array.from({ length: 10 }, (_, i) => `Race Farm ${i} r${before}`);
    const answers = await Promise.all(names.map((business_name) => change(farmer, { business_name })));
    // Without the lock, changes that read the same revision refuse each other (409) or, on FerretDB,
    // one puts back the revision another had set.
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
    const final = (await stored())!;
    expect(final.revision).toBe(before + 10);
    expect(names).toContain(final.business_name);
    expect(final.outbox ?? []).toEqual([]);
    await eventually(
      async () => catalog.collection('farmer').findOne({ farmer_id: farmer.id }),
      (f) => f?.business_name === final.business_name && f?.revision === before + 10,
      20_000,
    );
  });
});

describe('what nobody may change', () => {
  it.each([
    [
      'user_type',
      { user_type: 'buyer' },
      '"user_type" cannot be changed: a profile change may hold only firstname, lastname, phone, business_name, location, tuber, sms_alerts.',
    ],
    [
      'user_id',
      { user_id: 'someone-else', firstname: 'Ada' },
      '"user_id" cannot be changed: a profile change may hold only firstname, lastname, phone, business_name, location, tuber, sms_alerts.',
    ],
    ['email', { email: 'new@test.tuber.local' }, EMAIL_PROBLEM],
    [
      'revision',
      { revision: 99 },
      '"revision" cannot be changed: a profile change may hold only firstname, lastname, phone, business_name, location, tuber, sms_alerts.',
    ],
  ])('refuses %s (mass assignment) and changes nothing', async (_field, json, message) => {
    const before = await mine(farmer);
    const answer = await change(farmer, json);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message, code: expect.stringMatching(/^[A-Z_]+$/) });
    expect(await mine(farmer)).toEqual(before);
  });

  it('refuses an empty change', async () => {
    const answer = await change(buyer, {});
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(NOTHING_TO_CHANGE);
  });

  it.each(['12345', 'call me maybe', '-------', '0803 123 4567 89012345', '+44 20 7946 0958', '0803 123 456'])(
    'refuses the phone %j',
    async (phone) => {
      const answer = await change(buyer, { phone });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(PHONE_PROBLEM);
    },
  );

  it('refuses empty names', async () => {
    const answer = await change(buyer, { firstname: '   ' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('First name cannot be empty.');
  });

  it('answers 401 without a token', async () => {
    const answer = await change(undefined, { phone: '0803 123 4567' });
    expect(answer.status).toBe(401);
    expect(answer.body.statusCode).toBe(401);
  });
});

describe('a buyer changes the profile', () => {
  it('changes first name, last name and phone (the phone is kept, spec §3, in E.164 digits, issue 12)', async () => {
    const answer = await change(buyer, { firstname: 'Bola', lastname: 'Adeyemi', phone: '0803 555 0101' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ user_type: 'buyer', firstname: 'Bola', lastname: 'Adeyemi', phone: '2348035550101' });
    expect(answer.body.business_name).toBeUndefined();
    expect(await mine(buyer)).toMatchObject({ firstname: 'Bola', lastname: 'Adeyemi', phone: '2348035550101' });
  });

  it('cannot set farmer fields, and nothing of the change is kept', async () => {
    for (const json of [
      { business_name: 'Bola Foods' },
      { location: 'Lagos' },
      { tuber: ['yam'] },
      { phone: '0803 555 0202', tuber: [] },
    ]) {
      const answer = await change(buyer, json);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(BUYER_FARM_FIELDS_PROBLEM);
    }
    const after = await mine(buyer);
    expect(after.phone).toBe('2348035550101');
    expect(after).not.toHaveProperty('business_name');
    expect(after).not.toHaveProperty('tuber');
  });
});
