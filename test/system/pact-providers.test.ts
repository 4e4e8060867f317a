// Can this service deploy? Each running service verified against its consumers' HTTP pacts (issue 23,
// docs/delivery.md): today's, in contracts/pacts/, and the last release's, read from git at the commits in
// releases.json, so the answer needs no broker. Through the gateway, with provider states made through the
// product's own API, and real tokens in place of the consumers' placeholders (a-buyer-access-token,
// a-farmer-access-token): those of the accounts the interaction's state made, or of two standing accounts.
import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Verifier } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { accountWithProfile, lagosDay, ordersKnowProduct, postProduct, uploadPhotos } from '../e2e/support/market.js';
import { api, eventually } from '../support/api.js';
import { deleteAccount, type TestAccount } from '../support/accounts.js';
import { pactScratch, pactsOf } from '../support/pact-files.js';
import { codeFrom, waitForSms } from '../support/sms.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gateway = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const scratch = pactScratch();
const made: TestAccount[] = [];
afterAll(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  await Promise.all(made.map((account) => deleteAccount(account.id)));
});

const account = async (role: 'buyer' | 'farmer', location = 'Ibadan') => {
  const options = role === 'farmer' ? { role, businessName: 'Pact Farms', location, tuber: ['yam', 'cassava'] } : { role };
  const created = await accountWithProfile(options);
  made.push(created);
  return created;
};

/** Who signs the interaction's requests: the state's accounts, else the standing ones. */
let standing: { buyer: TestAccount; farmer: TestAccount } | undefined;
let current: { buyer?: TestAccount; farmer?: TestAccount } = {};
const standingAccounts = async () => (standing ??= { buyer: await account('buyer'), farmer: await account('farmer') });

/** A farmer's listed product (12 heaps of 5.5 kg at ₦2,000.50), which the orders service already knows. */
async function listedProduct() {
  const farmer = await account('farmer');
  const buyer = await account('buyer');
  const product = await postProduct(farmer, { product_name: 'Fresh white yam', price: 2000.5, unit: 'heap', unit_weight_kg: 5.5, quantity: 12 });
  await ordersKnowProduct(buyer.accessToken, { farmerId: farmer.id, productId: product.product_id, price: 2000.5, unit: 'heap' });
  current = { buyer, farmer };
  return { farmer, buyer, productId: product.product_id as string };
}

/** A buyer's request to a farmer of a listed product, sent through the gateway. */
async function sentRequest() {
  const { farmer, buyer, productId } = await listedProduct();
  const requestId = randomUUID();
  const sent = await api('POST', '/api/orders/requests', {
    token: buyer.accessToken,
    json: {
      request_id: requestId,
      farmer_id: farmer.id,
      lines: [{ product_id: productId, quantity: 2, price: 2000.5, unit: 'heap' }],
      fulfilment: 'pickup',
      preferred_date: lagosDay(1),
      phone: '08031234567',
    },
  });
  if (sent.status !== 201) throw new Error(`the state's request answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  return { requestId, productId, farmerId: farmer.id, buyerId: buyer.id };
}

/**
 * A fresh buyer with a number of its own (0809 and 7 random digits; test accounts all start with one): the
 * profile sends one code a minute and five a day per account and per number.
 */
async function buyerWithNewNumber() {
  const buyer = await account('buyer');
  const national = `0809${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  const saved = await api('PATCH', '/api/profile/me', { token: buyer.accessToken, json: { phone: national } });
  if (saved.status !== 200) throw new Error(`the state's phone change answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  current = { buyer };
  return { phone: saved.body.phone as string };
}

/**
 * Issue 27: real price figures for yam this week, made through the real pipeline (accepted requests and live
 * listings, carried to the catalog's price guide by events) at a place of this run's own, so its figures are these
 * alone: 5 sales by 3 farmers to 3 buyers (the sold band) and 5 listings by the 3 farmers (the asked band). The city's
 * figures take them in too, so the city has both bands whatever else the market holds. Made once a run: the
 * figures stay for the week, and each interaction of the state (every consumer's) reads the same.
 */
let yamFigures: Promise<{ location: string }> | undefined;
async function makeYamFigures(): Promise<{ location: string }> {
  const place = `Pactville ${Math.random().toString(36).slice(2, 7)}`;
  const people = await Promise.all([0, 1, 2].flatMap(() => [account('farmer', place), account('buyer')]));
  const farmers = people.filter((_, i) => i % 2 === 0);
  const buyers = people.filter((_, i) => i % 2 === 1);
  // ₦1,000, ₦1,200 and ₦1,400 per kg, sold; two more listings for five in all.
  const prices = [1000, 1200, 1400];
  const sold = await Promise.all(
    farmers.map(async (farmer, i) => {
      const { product_id } = await postProduct(farmer, { product_name: `Pact yam ${i + 1}`, price: prices[i]!, unit: 'kg', quantity: 100 });
      await ordersKnowProduct(buyers[i]!.accessToken, { farmerId: farmer.id, productId: product_id, price: prices[i]!, unit: 'kg' });
      if (i < 2) await postProduct(farmer, { product_name: `Pact yam ${i + 1}, big`, price: prices[i]! + 100, unit: 'kg', quantity: 100 });
      return product_id;
    }),
  );
  // [farmer, buyer]: every farmer sells, every buyer buys.
  const sales: [number, number][] = [
    [0, 0],
    [1, 1],
    [2, 2],
    [0, 1],
    [1, 2],
  ];
  await Promise.all(
    sales.map(async ([f, b]) => {
      const farmer = farmers[f]!;
      const requestId = randomUUID();
      const sent = await api('POST', '/api/orders/requests', {
        token: buyers[b]!.accessToken,
        json: {
          request_id: requestId,
          farmer_id: farmer.id,
          lines: [{ product_id: sold[f]!, quantity: 1, price: prices[f]!, unit: 'kg' }],
          fulfilment: 'pickup',
          preferred_date: lagosDay(1),
          phone: '08031234567',
        },
      });
      if (sent.status !== 201) throw new Error(`the state's request answered ${sent.status}: ${JSON.stringify(sent.body)}`);
      const accepted = await api('POST', `/api/orders/requests/${requestId}/accept`, { token: farmer.accessToken, json: {} });
      if (accepted.status !== 200) throw new Error(`the state's accept answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
    }),
  );
  // The catalog hears of them by event: wait for the place's bands, then the city's.
  const bands = async (query: string, scope: 'location' | 'city') => {
    const answer = await eventually(
      () => api('GET', `/api/catalog/prices/yam/now${query}`),
      (a) => a.status === 200 && a.body.scope === scope && a.body.sold?.count >= 5 && a.body.asked?.count >= 5,
      30_000,
    );
    if (answer.body?.scope !== scope || !answer.body.sold || !answer.body.asked) {
      throw new Error(`the state's figures (${scope}) did not come: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  };
  await bands(`?location=${encodeURIComponent(place)}`, 'location');
  await bands('', 'city');
  return { location: place };
}

/** Provider states, made through the product's own API; each answers the values its pacts inject. */
const stateHandlers = {
  'a product is listed': async () => {
    const { farmer, productId } = await listedProduct();
    return { productId, farmerId: farmer.id };
  },
  'a buyer sent the farmer a request': sentRequest,
  // Issue 24: the farmer blocked the buyer of the request above (the buyer's next send is refused).
  'the farmer blocked the buyer of a request': async () => {
    const values = await sentRequest();
    const { farmer } = current;
    const blocked = await api('PUT', `/api/orders/blocked-buyers/${values.buyerId}`, { token: farmer!.accessToken, json: {} });
    if (blocked.status !== 201) throw new Error(`the state's block answered ${blocked.status}: ${JSON.stringify(blocked.body)}`);
    return values;
  },
  // Issue 26: the farmer accepted and fulfilled the request above, and its buyer rated it.
  'a buyer reviewed a fulfilled request': async () => {
    const values = await sentRequest();
    const { farmer, buyer } = current;
    for (const action of ['accept', 'fulfil']) {
      const done = await api('POST', `/api/orders/requests/${values.requestId}/${action}`, { token: farmer!.accessToken, json: {} });
      if (done.status !== 200) throw new Error(`the state's ${action} answered ${done.status}: ${JSON.stringify(done.body)}`);
    }
    const rated = await api('PUT', `/api/orders/requests/${values.requestId}/review`, { token: buyer!.accessToken, json: { stars: 4, text: 'Good yams' } });
    if (rated.status !== 201) throw new Error(`the state's review answered ${rated.status}: ${JSON.stringify(rated.body)}`);
    return values;
  },
  // Issue 26: verifying a phone by SMS, through the local SMS catcher (make up starts it).
  'a buyer with a new phone number': buyerWithNewNumber,
  "a code was sent to the buyer's new phone number": async () => {
    const { phone } = await buyerWithNewNumber();
    const since = new Date();
    const sent = await api('POST', '/api/profile/me/phone/code', { token: current.buyer!.accessToken });
    if (sent.status !== 202) throw new Error(`the state's code request answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    // The code the SMS carried, which the pact sends back.
    return { phone, code: codeFrom(await waitForSms(phone, /\d{6}/, { since })) };
  },
  'the farmer uploaded two photos': async () => {
    // A farmer the catalog already knows (a first product waits for that), with two fresh photos.
    const { farmer } = await listedProduct();
    const photos = await uploadPhotos(farmer, 2, 140, 'pact add page');
    return { firstImageId: photos[0]!, secondImageId: photos[1]! };
  },
  'yam has figures this week': () => (yamFigures ??= makeYamFigures()),
  'an email address no one uses': () => Promise.resolve({ email: `pact-${randomUUID().slice(0, 8)}@example.test` }),
};

/** Verifies the provider behind the gateway against one pact file; rejects with every mismatch. */
async function verify(provider: string, file: string): Promise<unknown> {
  const { buyer, farmer } = await standingAccounts();
  return new Verifier({
    provider,
    providerBaseUrl: gateway,
    pactUrls: [file],
    stateHandlers,
    // The consumer's placeholder token becomes a real one; everything else is sent as the pact says.
    requestFilter: (req, _res, next) => {
      const header = req.headers['authorization'];
      if (typeof header === 'string') {
        const who = header.includes('a-farmer-access-token') ? (current.farmer ?? farmer) : (current.buyer ?? buyer);
        req.headers['authorization'] = `Bearer ${who.accessToken}`;
      }
      current = {}; // the next interaction without a state signs as the standing accounts
      next();
    },
    logLevel: 'error',
  }).verifyProvider();
}

describe('services verified against their consumers’ HTTP pacts (today’s and the last release’s)', () => {
  for (const provider of ['auth', 'profile', 'catalog', 'orders', 'media', 'nutrition']) {
    const files = pactsOf(provider, 'http', scratch);
    it(`${provider} has consumers’ pacts`, () => expect(files.length).toBeGreaterThan(0));
    for (const { label, file } of files) {
      it(`${provider} honours ${label}`, async () => {
        const output = await verify(provider, file);
        const report = JSON.parse(String(output)) as { result: boolean; interactionResults: { result: string }[] };
        expect(report.result).toBe(true);
        expect(report.interactionResults.length).toBeGreaterThan(0);
        expect(report.interactionResults.every((interaction) => interaction.result === 'OK')).toBe(true);
      }, 180_000);
    }
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
