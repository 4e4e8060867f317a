// Can this producer deploy? The running services' events (issue 23, docs/delivery.md) verified against
// their consumers' message pacts, today's and the last release's: a farmer signs up, posts a product with
// two photos, swaps one for another, accepts a buyer's request, deletes the product, picks a language and deletes the account, and the
// events those steps really put on NATS are what each pact's subject is answered with. Orders' events
// are verified in its unit tests (services/orders/test/unit/verify-message-pacts.test.ts); the profile's
// FarmerSmsAlertsChanged, which needs an SMS-verified number, by the profile service's own builder (alertsEvent).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MessageProviderPact, providerWithMetadata } from '@pact-foundation/pact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountDeleted,
  AccountEmailChanged,
  FarmerProfileChanged,
  FarmerSmsAlertsChanged,
  ImageRemoved,
  ImageStored,
  ProductChanged,
  ProductCreated,
  ProductDeleted,
  ProfileCreated,
  type EventContract,
} from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import { accountWithProfile, connectBus, lagosDay, ordersKnowProduct, postProduct, tapEvents, uploadPhotos } from '../e2e/support/market.js';
import { api, eventually } from '../support/api.js';
import { deleteAccount } from '../support/accounts.js';
import { pactScratch, pactsOf } from '../support/pact-files.js';
import { alertsEvent } from '../../services/profile/src/domain/phone-check.js';

const followed = [ProfileCreated, FarmerProfileChanged, ProductCreated, ProductChanged, ProductDeleted, ImageStored, ImageRemoved, AccountEmailChanged, AccountDeleted];
const scratch = pactScratch();
let bus: EventBus;
/** The event the walk-through made of each subject, and in each provider state (`subject|state`). */
const sent = new Map<string, Record<string, unknown>>();
/** The states a consumer may name, and the events sent in them. */
const STOCK_TAKEN = 'an accepted request took stock';
const ALERTS_OFF = 'a farmer switched the SMS alerts off';

/**
 * Events the walk-through does not make, as their producer's own builder makes them (`subject|state`): where a
 * farmer's SMS alerts go (issue 26) moves only with a number verified by an SMS code, and the profile service
 * writes this event in its outbox (routes/update.ts, routes/phone.ts) with alertsEvent: on to the verified
 * number, then off (null).
 */
const alertsOn = alertsEvent('dc0e9496-408c-41bd-a228-f2be3f9b0800', '2348091234567', 1);
const alertsOff = alertsEvent('dc0e9496-408c-41bd-a228-f2be3f9b0800', null, 2);
const built = new Map<string, Record<string, unknown>>([
  [`${alertsOn.subject}|`, alertsOn.payload as Record<string, unknown>],
  [`${alertsOff.subject}|${ALERTS_OFF}`, alertsOff.payload as Record<string, unknown>],
]);

beforeAll(async () => {
  bus = await connectBus('pact-messages');
  const taps = new Map(followed.map((event) => [event.subject, tapEvents(bus, event as EventContract)]));
  /** The first event of `event` (published from now on) that `which` picks. */
  const caught = async (event: EventContract, which: (payload: Record<string, unknown>) => boolean, state = '') => {
    const tap = taps.get(event.subject)!;
    const found = await eventually(
      async () => tap.seen.find(({ payload }) => which(payload as Record<string, unknown>) && ![...sent.values()].includes(payload as Record<string, unknown>)),
      (hit) => hit !== undefined,
      30_000,
    ).catch(() => undefined);
    if (!found) throw new Error(`no ${event.subject} came from the walk-through within 30 s`);
    sent.set(`${event.subject}|${state}`, found.payload as Record<string, unknown>);
  };

  const farmer = await accountWithProfile({ role: 'farmer', businessName: 'Pact Message Farms', location: 'Ibadan', tuber: ['yam'] });
  const mine = (field: string) => (payload: Record<string, unknown>) => payload[field] === farmer.id;
  await caught(ProfileCreated, mine('user_id'));
  await caught(FarmerProfileChanged, mine('farmer_id'));

  const product = await postProduct(farmer, { product_name: 'Pact yam', price: 1500, unit: 'heap', unit_weight_kg: 5, quantity: 12 });
  const ofProduct = (payload: Record<string, unknown>) => payload.product_id === product.product_id;
  await caught(ImageStored, mine('farmer_id'));
  await caught(ProductCreated, ofProduct);

  // One photo swapped for a new one: the edit's event names the one taken off, and the media service removes it.
  const [kept] = product.image_ids as string[];
  const [added] = await uploadPhotos(farmer, 1, 90, 'pact messages');
  const edited = await api('PATCH', `/api/catalog/products/${product.product_id}`, {
    token: farmer.accessToken,
    json: { image_ids: [kept, added], revision: product.revision },
  });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  await caught(ProductChanged, ofProduct);
  await caught(ImageRemoved, mine('farmer_id'));

  // A buyer asks for 2 heaps and the farmer accepts: the catalog takes them off the stock and says so.
  const buyer = await accountWithProfile({ role: 'buyer' });
  await ordersKnowProduct(buyer.accessToken, { farmerId: farmer.id, productId: product.product_id, price: 1500, unit: 'heap' });
  const requestId = randomUUID();
  const request = await api('POST', '/api/orders/requests', {
    token: buyer.accessToken,
    json: {
      request_id: requestId,
      farmer_id: farmer.id,
      lines: [{ product_id: product.product_id, quantity: 2, price: 1500, unit: 'heap' }],
      fulfilment: 'pickup',
      preferred_date: lagosDay(1),
      phone: '08031234567',
    },
  });
  expect(request.status, JSON.stringify(request.body)).toBe(201);
  const accepted = await api('POST', `/api/orders/requests/${requestId}/accept`, { token: farmer.accessToken, json: {} });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  await caught(ProductChanged, (payload) => ofProduct(payload) && ((payload.stock_ops as string[] | undefined) ?? []).includes(`${requestId}:take`), STOCK_TAKEN);

  const deleted = await api('DELETE', `/api/catalog/products/${product.product_id}`, { token: farmer.accessToken });
  expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
  await caught(ProductDeleted, ofProduct);

  const language = await api('PUT', '/api/auth/me/locale', { token: farmer.accessToken, json: { locale: 'yo' } });
  expect(language.status, JSON.stringify(language.body)).toBe(200);
  await caught(AccountEmailChanged, (payload) => payload.user_id === farmer.id && payload.locale === 'yo');

  await deleteAccount(farmer.id);
  await caught(AccountDeleted, mine('user_id'));
  await deleteAccount(buyer.id);
  for (const tap of taps.values()) tap.stop();
}, 180_000);

afterAll(async () => {
  await bus?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/**
 * Answers each pact's subject with the event the walk-through caught in the interaction's provider state
 * (a state handler names it; an interaction without one gets the plain event).
 */
function verify(provider: string, file: string) {
  let state = '';
  const subjects = new Set([...sent.keys(), ...built.keys()].map((key) => key.split('|')[0]!));
  const answer = (subject: string) => () => {
    const payload = sent.get(`${subject}|${state}`) ?? built.get(`${subject}|${state}`);
    state = '';
    if (!payload) throw new Error(`the walk-through made no ${subject} in that state`);
    return payload;
  };
  return new MessageProviderPact({
    provider,
    pactUrls: [file],
    messageProviders: Object.fromEntries([...subjects].map((subject) => [subject, providerWithMetadata(answer(subject), { subject })])),
    stateHandlers: {
      [STOCK_TAKEN]: () => {
        state = STOCK_TAKEN;
        return Promise.resolve();
      },
      [ALERTS_OFF]: () => {
        state = ALERTS_OFF;
        return Promise.resolve();
      },
    },
    logLevel: 'error',
  }).verify();
}

describe('producers verified against their consumers’ message pacts (today’s and the last release’s)', () => {
  it('answers the alerts event with the profile service’s builder, on its contract’s subject', () => {
    expect([alertsOn.subject, alertsOff.subject]).toEqual([FarmerSmsAlertsChanged.subject, FarmerSmsAlertsChanged.subject]);
  });

  it('caught every event the walk-through makes', () => {
    expect([...sent.keys()].sort()).toEqual([...followed.map((event) => `${event.subject}|`), `${ProductChanged.subject}|${STOCK_TAKEN}`].sort());
  });

  for (const provider of ['auth', 'profile', 'catalog', 'media']) {
    const pacts = pactsOf(provider, 'message', scratch);
    it(`${provider} has consumers’ pacts`, () => expect(pacts.length).toBeGreaterThan(0));
    for (const { label, file } of pacts) {
      it(`${provider}'s events honour ${label}`, async () => {
        await verify(provider, file);
      }, 60_000);
    }
  }

  it('fails a pact the catalog’s events do not meet (a field it never sends)', async () => {
    const file = pactsOf('catalog', 'message', scratch).find(({ label }) => label === "today's orders")!.file;
    const broken = JSON.parse(fs.readFileSync(file, 'utf8'));
    broken.messages[0].contents.harvest_day = '2026-12-01';
    broken.messages[0].matchingRules.body['$.harvest_day'] = { matchers: [{ match: 'type' }] };
    const brokenFile = path.join(scratch, 'orders-catalog-broken.json');
    fs.writeFileSync(brokenFile, JSON.stringify(broken));
    await expect(verify('catalog', brokenFile)).rejects.toThrow(/harvest_day/);
  }, 60_000);
});
