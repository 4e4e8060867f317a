// The authorisation matrix of every route the services publish (read from their OpenAPI documents)
// × {anonymous, buyer B, farmer B, moderator, buyer, farmer A}; object-level checks between two farmers and
// between two buyers (order requests); and mass assignment of fields a caller must never set, on
// every write route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { imageForm, photo } from '../support/api.js';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { disposeCast, makeActor, makeCast, signIn, type Actor, type Cast } from './support/actors.js';
import {
  makeOrderRequest,
  makeProduct,
  orderRequestBody,
  postOrderRequest,
  postProduct,
  productBody,
  uploadPhoto,
} from './support/objects.js';
import { fill, operations, WRITE_METHODS, type Operation } from './support/openapi.js';
import { ROUTE_RULES } from './support/routes.js';
import { call, catalogMongoUrl, isErrorShape, mediaMongoUrl, profileMongoUrl, type Answer } from './support/stack.js';
import { denialChecked } from './support/tally.js';

const ops = await operations();
let cast: Cast;
/**
 * A buyer who also holds the realm role `moderator` (issue 26): the only caller the moderation desk lets in,
 * and otherwise a buyer like buyer B, party to nothing.
 */
let moderator: Actor;
/** A buyer who sends only the report mass-assignment case's posts (reports are limited to 10 an hour per person). */
let reporter: Promise<Actor> | undefined;
// `kind` + `id`: the moderation desk's target is the fixtures' order request.
const fixtures: Record<string, string> = { tuberType: 'yam', tuber: 'sweet-potato', kind: 'request' };
/** A product of farmer A's that only the DELETE route's matrix row uses (its last step deletes it). */
let doomedProduct: string;

beforeAll(async () => {
  [cast, moderator] = await Promise.all([makeCast(), makeActor('moderator', { role: 'buyer', moderator: true })]);
  fixtures.farmerId = cast.farmerA.id;
  fixtures.productId = await makeProduct(cast.farmerA);
  fixtures.imageId = await uploadPhoto(cast.farmerA, 'unattached.jpg');
  doomedProduct = await makeProduct(cast.farmerA);
  // An order request between the buyer and farmer A: buyer B and farmer B are no party to it.
  fixtures.id = await makeOrderRequest(cast.buyer, fixtures.productId);
  // The buyer the block routes name: buyer B never sent farmer A a request, so no probe blocks anyone.
  fixtures.buyerId = cast.buyerB.id;
}, 180_000);

afterAll(async () => {
  await disposeCast({ ...cast, moderator, reporter: await reporter?.catch(() => undefined) });
});

type Who = 'anonymous' | 'buyer' | 'buyer B' | 'farmer A' | 'farmer B' | 'moderator';
/** The order of the matrix: the parties to the fixtures last, the owner very last (an allowed DELETE removes the object). */
const MATRIX: Who[] = ['anonymous', 'buyer B', 'farmer B', 'moderator', 'buyer', 'farmer A'];
/** The moderator's account is a buyer's: the role buys the desk and nothing else (no farmer's routes, no one else's objects). */
const isBuyer = (who: Who) => who === 'buyer' || who === 'buyer B' || who === 'moderator';

async function tokenOf(who: Who): Promise<string | undefined> {
  if (who === 'anonymous') return undefined;
  const actor = { buyer: cast.buyer, 'buyer B': cast.buyerB, 'farmer A': cast.farmerA, 'farmer B': cast.farmerB, moderator }[who];
  return actor.token();
}

/** A request any route accepts far enough to decide who may call it; the body is deliberately empty. */
async function probe(op: Operation, who: Who, params: Record<string, string>): Promise<Answer> {
  const path = fill(op.path, params);
  const token = await tokenOf(who);
  if (op.method === 'GET' || op.method === 'DELETE') return call(op.method, path, { token });
  return call(op.method, path, { token, json: {} });
}

/** Which statuses each caller may get: a denial (exact) or "anything but a denial or a failure". */
function expectation(op: Operation, who: Who): { deny: number[] } | { allow: true } {
  const rule = ROUTE_RULES[op.key]!;
  if (rule.access === 'public') return { allow: true };
  if (who === 'anonymous') return { deny: [401] };
  // The moderation desk (issue 26): the realm role moderator only; any buyer or farmer without it gets 403.
  if (rule.access === 'moderator') return who === 'moderator' ? { allow: true } : { deny: [403] };
  // A farmer's route refuses a buyer by role (403); where the object decides (owner), a buyer who
  // is no party to it may also be answered as if it did not exist (an order request: 404).
  if (rule.access === 'farmer' && isBuyer(who)) return { deny: rule.owner ? [403, 404] : [403] };
  if (rule.access === 'buyer' && !isBuyer(who)) return { deny: [403] };
  if (rule.owner && who !== 'farmer A') return { deny: [403, 404] };
  // The fixtures' order request is between the buyer and farmer A.
  if (rule.parties && who !== 'farmer A' && who !== 'buyer') return { deny: [403, 404] };
  return { allow: true };
}

describe('every route is classified', () => {
  it('each service publishes its OpenAPI document and together they list routes', () => {
    expect(ops.length).toBeGreaterThan(10);
  });

  it.each(ops.map((op) => [op.key, op] as const))('%s has a rule that agrees with its declared security', (_key, op) => {
    const rule = ROUTE_RULES[op.key];
    expect(rule, `${op.key} is new: classify it in test/security/support/routes.ts`).toBeDefined();
    expect(op.secured, `${op.key}: the document's security and the rule (${rule!.access}) disagree`).toBe(rule!.access !== 'public');
  });

  it('no rule names a route that no longer exists', () => {
    const published = new Set(ops.map((op) => op.key));
    expect(Object.keys(ROUTE_RULES).filter((key) => !published.has(key))).toEqual([]);
  });
});

describe('authorisation matrix: every route × {anonymous, buyer B, farmer B, moderator, buyer, farmer A}', () => {
  it.each(ops.map((op) => [op.key, op] as const))('%s', async (_key, op) => {
    expect(ROUTE_RULES[op.key], `${op.key} is not classified`).toBeDefined();
    const params = { ...fixtures, ...(op.method === 'DELETE' ? { productId: doomedProduct } : {}) };
    const seen: string[] = [];
    for (const who of MATRIX) {
      const answer = await probe(op, who, params);
      const expected = expectation(op, who);
      seen.push(`${who} → ${answer.status}`);
      if ('deny' in expected) {
        expect(expected.deny, `${op.key} as ${who}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
        expect(isErrorShape(answer.body, answer.status), `${op.key} as ${who}: error shape, got ${answer.text.slice(0, 200)}`).toBe(true);
        denialChecked();
      } else {
        expect([401, 403], `${op.key} as ${who} must be let through (${seen.join(', ')}): ${answer.text.slice(0, 200)}`).not.toContain(
          answer.status,
        );
        expect(answer.status, `${op.key} as ${who}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });

  it.each(ops.filter((op) => op.secured).map((op) => [op.key, op] as const))(
    '%s refuses a token that is not a bearer header: garbage, a query parameter, a cookie, basic auth',
    async (_key, op) => {
      const token = await cast.farmerA.token();
      const path = fill(op.path, { ...fixtures, productId: randomUUID() });
      const sep = path.includes('?') ? '&' : '?';
      const attempts: [string, Promise<Answer>][] = [
        [
          'Bearer garbage',
          call(op.method, path, {
            headers: { authorization: 'Bearer not.a.token' },
            json: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
          }),
        ],
        [
          '?access_token=',
          call(op.method, `${path}${sep}access_token=${token}`, { json: op.method === 'GET' || op.method === 'DELETE' ? undefined : {} }),
        ],
        [
          'cookie',
          call(op.method, path, {
            headers: { cookie: `access_token=${token}; KEYCLOAK_IDENTITY=${token}` },
            json: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
          }),
        ],
        [
          'Basic',
          call(op.method, path, {
            headers: { authorization: `Basic ${Buffer.from(`${cast.farmerA.email}:${cast.farmerA.password}`).toString('base64')}` },
            json: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
          }),
        ],
      ];
      for (const [label, pending] of attempts) {
        const answer = await pending;
        expect(answer.status, `${op.key} with ${label}: ${answer.text.slice(0, 200)}`).toBe(401);
        denialChecked();
      }
    },
  );
});

describe('object level: farmer B against farmer A', () => {
  it("B cannot delete A's product, not even naming A as the farmer; it stays in the feed", async () => {
    const productId = await makeProduct(cast.farmerA);
    const tokenB = await cast.farmerB.token();
    for (const body of [undefined, { farmer_id: cast.farmerA.id }]) {
      const answer = await call('DELETE', `/api/catalog/products/${productId}`, { token: tokenB, ...(body ? { json: body } : {}) });
      expect([400, 403, 404], answer.text).toContain(answer.status);
      denialChecked();
    }
    const still = await call('GET', `/api/catalog/products/${productId}`, { token: await cast.buyer.token() });
    expect(still.status).toBe(200);
    expect(still.body.farmer_id).toBe(cast.farmerA.id);
  });

  it("B cannot post a product with A's photos, and the photos stay A's to use", async () => {
    const ids = [await uploadPhoto(cast.farmerA), await uploadPhoto(cast.farmerA)];
    const stolen = await postProduct(cast.farmerB, productBody(ids, { tuber_type: 'ginger' }));
    expect([400, 403, 404, 409], stolen.text).toContain(stolen.status);
    denialChecked();
    const mixed = await postProduct(cast.farmerB, productBody([ids[0]!, await uploadPhoto(cast.farmerB)], { tuber_type: 'ginger' }));
    expect([400, 403, 404, 409], mixed.text).toContain(mixed.status);
    denialChecked();
    const mine = await call('GET', '/api/catalog/products/mine', { token: await cast.farmerB.token() });
    expect(mine.body.items.flatMap((p: { image_ids?: string[] }) => p.image_ids ?? [])).not.toContain(ids[0]);
    const own = await postProduct(cast.farmerA, productBody(ids));
    expect(own.status, own.text).toBe(201);
  });

  it("B and the buyer cannot read A's unattached photo record; A can", async () => {
    const imageId = await uploadPhoto(cast.farmerA, 'not yet posted.jpg');
    for (const actor of [cast.farmerB, cast.buyer]) {
      const answer = await call('GET', `/api/media/images/${imageId}`, { token: await actor.token() });
      expect([403, 404], `${actor.label}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
      expect(answer.text).not.toContain(cast.farmerA.id);
      denialChecked();
    }
    expect((await call('GET', `/api/media/images/${imageId}`, { token: await cast.farmerA.token() })).status).toBe(200);
  });

  it("B's own product list and profile never show A's things", async () => {
    const mine = await call('GET', '/api/catalog/products/mine', { token: await cast.farmerB.token() });
    expect(mine.status).toBe(200);
    expect(mine.body.items.every((p: { farmer_id: string }) => p.farmer_id === cast.farmerB.id)).toBe(true);
    const me = await call('GET', '/api/profile/me', { token: await cast.farmerB.token() });
    expect(me.body.user_id).toBe(cast.farmerB.id);
    expect(me.body.business_name).toBe('Bola Farms');
  });
});

describe('object level: order requests are their buyer’s and their farmer’s only', () => {
  let requestId: string;
  beforeAll(async () => {
    requestId = await makeOrderRequest(cast.buyer, fixtures.productId!);
  }, 60_000);

  it('buyer B and farmer B can neither read nor find the buyer’s request to farmer A; both parties can', async () => {
    for (const actor of [cast.buyerB, cast.farmerB]) {
      const one = await call('GET', `/api/orders/requests/${requestId}`, { token: await actor.token() });
      expect([403, 404], `${actor.label}: ${one.text.slice(0, 200)}`).toContain(one.status);
      expect(one.text).not.toContain(cast.buyer.id);
      expect(one.text).not.toContain('8031234567');
      denialChecked();
      const list = await call('GET', '/api/orders/requests', { token: await actor.token() });
      expect(list.status, `${actor.label}: ${list.text.slice(0, 200)}`).toBe(200);
      expect(list.text, `${actor.label}'s list`).not.toContain(requestId);
      denialChecked();
    }
    for (const actor of [cast.buyer, cast.farmerA]) {
      const one = await call('GET', `/api/orders/requests/${requestId}`, { token: await actor.token() });
      expect(one.status, `${actor.label}: ${one.text.slice(0, 200)}`).toBe(200);
      expect(one.body.request_id).toBe(requestId);
      const list = await call('GET', '/api/orders/requests', { token: await actor.token() });
      expect(list.text, `${actor.label}'s list`).toContain(requestId);
    }
  });

  it('nobody but its farmer moves it on, nobody but its parties cancels it; it stays as it was', async () => {
    const attempts: [Actor, string, Record<string, unknown>][] = [
      [cast.farmerB, 'accept', {}],
      [cast.farmerB, 'decline', { reason: 'Not mine to decline' }],
      [cast.farmerB, 'fulfil', {}],
      [cast.farmerB, 'cancel', { reason: 'Not mine to cancel' }],
      [cast.buyerB, 'cancel', { reason: 'Not mine to cancel' }],
      [cast.buyerB, 'read', {}],
      // The buyer is a party, but accepting is the farmer's.
      [cast.buyer, 'accept', {}],
    ];
    for (const [actor, action, body] of attempts) {
      const answer = await call('POST', `/api/orders/requests/${requestId}/${action}`, { token: await actor.token(), json: body });
      expect([403, 404], `${action} as ${actor.label}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
      expect(isErrorShape(answer.body, answer.status), `${action} as ${actor.label}: error shape`).toBe(true);
      denialChecked();
    }
    const after = await call('GET', `/api/orders/requests/${requestId}`, { token: await cast.buyer.token() });
    expect(after.body.status).toBe('sent');
    expect(after.body.revision).toBe(1);
  });

  it('a buyer cannot send a request to one farmer for another farmer’s product', async () => {
    const body = await orderRequestBody(cast.buyer, fixtures.productId!);
    const answer = await call('POST', '/api/orders/requests', {
      token: await cast.buyer.token(),
      json: { ...body, farmer_id: cast.farmerB.id },
    });
    expect([400, 404, 409], answer.text.slice(0, 200)).toContain(answer.status);
    denialChecked();
    const list = await call('GET', '/api/orders/requests', { token: await cast.farmerB.token() });
    expect(list.text).not.toContain(body.request_id as string);
  });
});

// ---------------------------------------------------------------------------------------------
// Mass assignment: fields a caller must never set. A route refuses them (400) or ignores them, and
// then the stored document proves it did not take the value.

const HOSTILE = ['farmer_id', 'business_name', 'created_at', 'price_kobo', '__proto__', 'constructor'] as const;
/** What an order request's own fields would be worth to a caller who could set them (issue 12). */
const ORDER_FIELDS = ['buyer_id', 'status', 'number', 'revision', 'history', 'unread'] as const;
/** A report's own fields (issue 26): whose it is, how often it was sent, whether it is still open. */
const REPORT_FIELDS = ['reporter_id', 'times', 'state'] as const;
/** An audit entry's own fields (issue 26): which moderator did it, to whom, and what it closed. */
const AUDIT_FIELDS = ['moderator_id', 'moderator_name', 'subject_user_id', 'closed_reports'] as const;
type Field =
  | (typeof HOSTILE)[number]
  | (typeof ORDER_FIELDS)[number]
  | (typeof REPORT_FIELDS)[number]
  | (typeof AUDIT_FIELDS)[number];
const VALUES: Record<Field, () => unknown> = {
  farmer_id: () => cast.farmerB.id,
  business_name: () => 'Mallory Holdings',
  created_at: () => '2001-01-01T00:00:00.000Z',
  price_kobo: () => 1,
  __proto__: () => ({ polluted: 'yes', roles: ['admin'], farmer_id: cast.farmerB.id }),
  constructor: () => ({ prototype: { polluted: 'yes' } }),
  buyer_id: () => cast.buyerB.id,
  status: () => 'fulfilled',
  number: () => 'TM-0001',
  revision: () => 99,
  history: () => [{ status: 'accepted', at: '2001-01-01T00:00:00.000Z', by: 'farmer' }],
  unread: () => false,
  reporter_id: () => cast.buyerB.id,
  times: () => 99,
  state: () => 'closed',
  moderator_id: () => cast.buyerB.id,
  moderator_name: () => 'Mallory M.',
  subject_user_id: () => cast.farmerB.id,
  closed_reports: () => 99,
};

/** The body as JSON text with the field added (JSON.stringify drops a "__proto__" key). */
const withField = (body: Record<string, unknown>, field: Field) =>
  `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length ? ',' : ''}"${field}":${JSON.stringify(VALUES[field]())}}`;

const email = () => `mass-${randomUUID().slice(0, 8)}@test.tuber.local`;
const person = () => ({
  firstname: 'Mass',
  lastname: 'Test',
  email: email(),
  phone: '+2348030000000',
  password: `Pw-${randomUUID()}`,
  confirm_password: '',
});

interface WriteCase {
  /** Also try the fields the route's schema declares (they are its own input otherwise). */
  checksDeclared?: boolean;
  /** Fields to try besides the common hostile ones (an order request's own). */
  alsoFields?: readonly Field[];
  /** Sends the route's valid request with the field added. */
  send(field: Field): Promise<Answer>;
  /** When the route did not refuse: prove the value was not stored. */
  proveIgnored(field: Field, answer: Answer): Promise<void>;
}

let spareImages: string[] | undefined;
/** Farmer A's product the PATCH mass-assignment case changes (made once). */
let editedProduct: string | undefined;
let media: mongoose.Connection;
let catalog: mongoose.Connection;
let profile: mongoose.Connection;

function signup(role: 'buyer' | 'farmer'): WriteCase {
  let sentEmail = '';
  return {
    async send(field) {
      const p = person();
      p.confirm_password = p.password;
      sentEmail = p.email;
      const body =
        role === 'farmer'
          ? { ...p, location: 'Ibadan', tuber: ['yam'], ...(field === 'business_name' ? {} : { business_name: 'Honest Farms' }) }
          : p;
      return call('POST', `/api/auth/signup/${role}`, { rawJson: withField(body, field) });
    },
    async proveIgnored(field) {
      // An account was made: its attributes must not carry the field (other than the form's own business name).
      const { default: KcAdminClient } = await import('@keycloak/keycloak-admin-client');
      const kc = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
      await kc.auth({
        grantType: 'client_credentials',
        clientId: 'tuber-auth',
        clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
      });
      const [user] = await kc.users.find({ email: sentEmail, exact: true });
      try {
        const attributes = JSON.stringify(user?.attributes ?? {});
        expect(attributes).not.toContain(cast.farmerB.id);
        expect(attributes).not.toContain('Mallory');
        expect(attributes).not.toContain('2001-01-01');
        expect(attributes).not.toContain('polluted');
        expect(Object.keys(user?.attributes ?? {})).not.toContain(field);
      } finally {
        if (user?.id) await deleteAccount(user.id);
      }
    },
  };
}

const emailOnly = (path: string): WriteCase => ({
  send: (field) => call('POST', path, { rawJson: withField({ email: email() }, field) }),
  async proveIgnored() {
    throw new Error(`${path} stores nothing a caller names, so it must refuse unknown fields (400)`);
  },
});

const resetRoute = (path: string, body: () => Record<string, unknown>): WriteCase => ({
  send: (field) => call('POST', path, { rawJson: withField(body(), field) }),
  async proveIgnored() {
    throw new Error(`${path} must refuse unknown fields (400)`);
  },
});

const WRITE_CASES: Record<string, () => WriteCase> = {
  'POST /api/auth/signup/buyer': () => signup('buyer'),
  'POST /api/auth/signup/farmer': () => signup('farmer'),
  'POST /api/auth/verification/resend': () => emailOnly('/api/auth/verification/resend'),
  'POST /api/auth/password/forgot': () => emailOnly('/api/auth/password/forgot'),
  'POST /api/auth/password/reset/check': () => resetRoute('/api/auth/password/reset/check', () => ({ token: randomUUID() })),
  // Issue 13: the caller's own language; any other field is refused.
  'PUT /api/auth/me/locale': () => ({
    send: async (field) =>
      call('PUT', '/api/auth/me/locale', { token: await cast.buyer.token(), rawJson: withField({ locale: 'en' }, field) }),
    async proveIgnored() {
      throw new Error('PUT /api/auth/me/locale must refuse unknown fields (400)');
    },
  }),
  // The kept browser sign-in (docs/adr/0050): closed bodies; logout takes none and reads none.
  'POST /api/auth/session': () => ({
    send: async (field) =>
      call('POST', '/api/auth/session', { token: await cast.buyer.token(), rawJson: withField({ refresh_token: 'not-a-token' }, field) }),
    async proveIgnored() {
      throw new Error('POST /api/auth/session must refuse unknown fields (400)');
    },
  }),
  'POST /api/auth/session/token': () => ({
    send: (field) => call('POST', '/api/auth/session/token', { headers: { 'x-tuber-session': '1' }, rawJson: withField({}, field) }),
    async proveIgnored() {
      throw new Error('POST /api/auth/session/token must refuse unknown fields (400)');
    },
  }),
  'DELETE /api/auth/session': () => ({
    send: (field) => call('DELETE', '/api/auth/session', { headers: { 'x-tuber-session': '1' }, rawJson: withField({}, field) }),
    async proveIgnored(_field, answer) {
      // Nothing is kept from a logout: it only clears the cookie.
      expect(answer.status).toBe(204);
      expect(answer.headers.get('set-cookie')).toMatch(/^tuber_session=;/);
    },
  }),
  'POST /api/auth/password/reset': () =>
    resetRoute('/api/auth/password/reset', () => ({
      token: randomUUID(),
      password: 'Correct-Horse-9',
      confirm_password: 'Correct-Horse-9',
    })),

  // A new farmer's first POST /me creates the profile from the token alone.
  'POST /api/profile/me': () => {
    let fresh: Actor | undefined;
    return {
      async send(field) {
        fresh = await makeActorWithoutProfile();
        return call('POST', '/api/profile/me', { token: await fresh.token(), rawJson: withField({}, field) });
      },
      async proveIgnored(_field, answer) {
        try {
          expect([200, 201]).toContain(answer.status);
          const doc = await profile.collection('farmer').findOne({ user_id: fresh!.id });
          expect(doc, 'the profile was created').toBeTruthy();
          expect(doc!.business_name).toBe('Fresh Farms');
          expect(doc!.farmer_id).toBeUndefined();
          expect(doc!.price_kobo).toBeUndefined();
          expect(doc!.polluted).toBeUndefined();
          expect(new Date(doc!.created_at).getUTCFullYear()).toBeGreaterThan(2001);
        } finally {
          await deleteAccount(fresh!.id);
        }
      },
    };
  },
  // Farmers may change their business name: the buyer's change must not give a buyer one.
  'PATCH /api/profile/me': () => ({
    checksDeclared: true,
    send: async (field) =>
      call('PATCH', '/api/profile/me', { token: await cast.buyer.token(), rawJson: withField({ firstname: 'Changed' }, field) }),
    async proveIgnored() {
      const doc = await profile.collection('buyer').findOne({ user_id: cast.buyer.id });
      expect(doc!.business_name).toBeUndefined();
      expect(doc!.farmer_id).toBeUndefined();
      expect(doc!.price_kobo).toBeUndefined();
      expect(new Date(doc!.created_at).getUTCFullYear()).toBeGreaterThan(2001);
    },
  }),
  // Issue 26 (docs/adr/0070): closed bodies; the code goes to the profile's own number, never one from a body.
  'POST /api/profile/me/phone/code': () => ({
    send: async (field) =>
      call('POST', '/api/profile/me/phone/code', { token: await cast.buyer.token(), rawJson: withField({ locale: 'en' }, field) }),
    async proveIgnored() {
      throw new Error('POST /api/profile/me/phone/code must refuse unknown fields (400)');
    },
  }),
  'POST /api/profile/me/phone/verify': () => ({
    send: async (field) =>
      call('POST', '/api/profile/me/phone/verify', { token: await cast.buyer.token(), rawJson: withField({ code: '000000' }, field) }),
    async proveIgnored() {
      throw new Error('POST /api/profile/me/phone/verify must refuse unknown fields (400)');
    },
  }),
  'POST /api/catalog/products': () => ({
    async send(field) {
      // A refused post leaves its photos unused: the next field reuses them (uploads are capped).
      spareImages ??= [await uploadPhoto(cast.farmerA), await uploadPhoto(cast.farmerA)];
      return postProduct(cast.farmerA, undefined, withField(productBody(spareImages), field));
    },
    async proveIgnored(_field, answer) {
      expect(answer.status).toBe(201);
      spareImages = undefined;
      const doc = await catalog.collection('product').findOne({ product_id: answer.body.product_id });
      expect(doc!.farmer_id).toBe(cast.farmerA.id);
      expect(doc!.business_name).toBe('Ada Farms');
      expect(doc!.price_kobo).toBe(250_000);
      expect(new Date(doc!.created_at).getUTCFullYear()).toBeGreaterThan(2001);
      expect(doc!.polluted).toBeUndefined();
    },
  }),
  // Deleting names no fields; B naming A as the farmer must not reach A's product.
  'DELETE /api/catalog/products/{productId}': () => {
    let productId = '';
    return {
      async send(field) {
        productId = await makeProduct(cast.farmerA);
        return call('DELETE', `/api/catalog/products/${productId}`, { token: await cast.farmerB.token(), rawJson: withField({}, field) });
      },
      async proveIgnored(_field, answer) {
        expect([403, 404]).toContain(answer.status);
        expect((await catalog.collection('product').findOne({ product_id: productId }))?.farmer_id).toBe(cast.farmerA.id);
      },
    };
  },
  // Changing a product: the schema refuses every field it does not name; the farmer and the place stay A's.
  'PATCH /api/catalog/products/{productId}': () => ({
    async send(field) {
      editedProduct ??= await makeProduct(cast.farmerA);
      return call('PATCH', `/api/catalog/products/${editedProduct}`, {
        token: await cast.farmerA.token(),
        rawJson: withField({ price: 2600 }, field),
      });
    },
    async proveIgnored() {
      const doc = await catalog.collection('product').findOne({ product_id: editedProduct });
      expect(doc!.farmer_id).toBe(cast.farmerA.id);
      expect(doc!.business_name).toBe('Ada Farms');
      expect(new Date(doc!.created_at).getUTCFullYear()).toBeGreaterThan(2001);
      expect(doc!.polluted).toBeUndefined();
    },
  }),
  // Order requests (issue 12): every body schema is closed, so a field the caller may not set is
  // refused (400); where a route takes no body, the request afterwards is proved unchanged.
  'POST /api/orders/requests': () => {
    let sent: string | undefined;
    return {
      alsoFields: ORDER_FIELDS,
      async send(field) {
        const body = await orderRequestBody(cast.buyer, fixtures.productId!);
        sent = body.request_id as string;
        return postOrderRequest(cast.buyer, body, withField(body, field));
      },
      async proveIgnored(_field, answer) {
        expect(answer.status).toBe(201);
        await requestIntact(sent!, 'sent');
      },
    };
  },
  'POST /api/orders/requests/{id}/accept': () => orderAction('accept', () => cast.farmerA, {}),
  'POST /api/orders/requests/{id}/decline': () => orderAction('decline', () => cast.farmerA, { reason: 'Sold at the market this morning' }),
  'POST /api/orders/requests/{id}/fulfil': () => orderAction('fulfil', () => cast.farmerA, {}),
  'POST /api/orders/requests/{id}/cancel': () => orderAction('cancel', () => cast.buyer, { reason: 'Bought elsewhere' }),
  'POST /api/orders/requests/{id}/read': () => orderAction('read', () => cast.buyer, {}, 'sent'),
  // Blocking (issue 24): the farmer is the token's; the PUT's body is closed, the DELETE reads none.
  'PUT /api/orders/blocked-buyers/{buyerId}': () => ({
    send: async (field) =>
      call('PUT', `/api/orders/blocked-buyers/${cast.buyerB.id}`, { token: await cast.farmerA.token(), rawJson: withField({}, field) }),
    async proveIgnored() {
      throw new Error('PUT /api/orders/blocked-buyers/{buyerId} must refuse unknown fields (400)');
    },
  }),
  'DELETE /api/orders/blocked-buyers/{buyerId}': () => ({
    send: async (field) =>
      call('DELETE', `/api/orders/blocked-buyers/${cast.buyerB.id}`, { token: await cast.farmerB.token(), rawJson: withField({}, field) }),
    async proveIgnored(_field, answer) {
      expect(answer.status).toBe(204);
      // Nothing is kept from an unblock: neither farmer's list gained or lost anyone.
      for (const farmer of [cast.farmerA, cast.farmerB]) {
        expect((await call('GET', '/api/orders/blocked-buyers', { token: await farmer.token() })).body.items).toEqual([]);
      }
    },
  }),
  // Reviews (issue 26): both bodies are closed, so a field the caller may not set is refused (400) before the
  // request's state is looked at; the request stays as it was.
  'PUT /api/orders/requests/{id}/review': () => ({
    alsoFields: ORDER_FIELDS,
    send: async (field) => call('PUT', `/api/orders/requests/${fixtures.id}/review`, { token: await cast.buyer.token(), rawJson: withField({ stars: 5 }, field) }),
    async proveIgnored() {
      throw new Error('PUT /api/orders/requests/{id}/review must refuse unknown fields (400)');
    },
  }),
  'PUT /api/orders/requests/{id}/review/answer': () => ({
    alsoFields: ORDER_FIELDS,
    send: async (field) =>
      call('PUT', `/api/orders/requests/${fixtures.id}/review/answer`, { token: await cast.farmerA.token(), rawJson: withField({ text: 'Thanks' }, field) }),
    async proveIgnored() {
      throw new Error('PUT /api/orders/requests/{id}/review/answer must refuse unknown fields (400)');
    },
  }),
  'POST /api/orders/unread/ticket': () => ({
    async send(field) {
      return call('POST', '/api/orders/unread/ticket', { token: await cast.buyer.token(), rawJson: withField({}, field) });
    },
    async proveIgnored() {
      throw new Error('POST /api/orders/unread/ticket takes no body (the ticket is for the token, nothing else): it must refuse every field (400)');
    },
  }),
  'POST /api/orders/activity': () => ({
    async send(field) {
      return call('POST', '/api/orders/activity', {
        token: await cast.buyer.token(),
        rawJson: withField({ product_id: fixtures.productId, kind: 'view' }, field),
      });
    },
    async proveIgnored() {
      throw new Error(
        'POST /api/orders/activity stores nothing a caller names but the product and the kind: it must refuse unknown fields (400)',
      );
    },
  }),
  // Moderation (issue 26): both bodies are closed, so every field the schema does not name is refused (400)
  // before anything is looked up. The reports come from a buyer of their own (10 an hour per person, and a
  // refused post still counts); the action is a moderator's dismiss, which would change nothing if it were taken.
  'POST /api/moderation/reports': () => ({
    alsoFields: REPORT_FIELDS,
    async send(field) {
      reporter ??= makeActor('reporter', { role: 'buyer' });
      return call('POST', '/api/moderation/reports', {
        token: await (await reporter).token(),
        rawJson: withField({ target_kind: 'product', target_id: fixtures.productId, reason: 'wrong_price' }, field),
      });
    },
    async proveIgnored() {
      throw new Error('POST /api/moderation/reports must refuse unknown fields (400)');
    },
  }),
  'POST /api/moderation/targets/{kind}/{id}/actions': () => ({
    alsoFields: AUDIT_FIELDS,
    send: async (field) =>
      call('POST', `/api/moderation/targets/product/${fixtures.productId}/actions`, {
        token: await moderator.token(),
        rawJson: withField({ action: 'dismiss', reason: 'Nothing wrong with this listing' }, field),
      }),
    async proveIgnored() {
      throw new Error('POST /api/moderation/targets/{kind}/{id}/actions must refuse unknown fields (400)');
    },
  }),
  'POST /api/media/images': () => ({
    async send(field) {
      const form = imageForm(await photo(320, 240), 'mass.jpg');
      const value = VALUES[field]();
      form.append(field, typeof value === 'string' ? value : JSON.stringify(value));
      return call('POST', '/api/media/images', { token: await cast.farmerA.token(), form });
    },
    async proveIgnored(_field, answer) {
      expect(answer.status).toBe(201);
      const doc = await media.collection('image').findOne({ image_id: answer.body.image_id });
      expect(doc!.farmer_id).toBe(cast.farmerA.id);
      expect(new Date(doc!.created_at).getUTCFullYear()).toBeGreaterThan(2001);
      expect(doc!.business_name).toBeUndefined();
      expect(doc!.price_kobo).toBeUndefined();
      expect(doc!.polluted).toBeUndefined();
    },
  }),
};

/** The order requests the mass-assignment cases act on: one fresh request (buyer → farmer A) per route. */
const orderFor = new Map<string, Promise<string>>();

/** A request state change with the field added, by the party the route is for. */
function orderAction(action: string, party: () => Actor, body: Record<string, unknown>, status?: string): WriteCase {
  return {
    alsoFields: ORDER_FIELDS,
    async send(field) {
      if (!orderFor.has(action)) orderFor.set(action, makeOrderRequest(cast.buyer, fixtures.productId!));
      const requestId = await orderFor.get(action)!;
      return call('POST', `/api/orders/requests/${requestId}/${action}`, { token: await party().token(), rawJson: withField(body, field) });
    },
    async proveIgnored() {
      await requestIntact(await orderFor.get(action)!, status);
    },
  };
}

/** The request as its buyer reads it: still between the buyer and farmer A, with the service's own number, revision and history. */
async function requestIntact(requestId: string, status?: string) {
  const answer = await call('GET', `/api/orders/requests/${requestId}`, { token: await cast.buyer.token() });
  expect(answer.status, answer.text.slice(0, 200)).toBe(200);
  const request = answer.body;
  expect(request.buyer_id).toBe(cast.buyer.id);
  expect(request.farmer_id).toBe(cast.farmerA.id);
  expect(request.business_name).toBe('Ada Farms');
  expect(request.number).not.toBe('TM-0001');
  expect(request.revision).not.toBe(99);
  if (status) expect(request.status).toBe(status);
  expect(new Date(request.created_at).getUTCFullYear()).toBeGreaterThan(2001);
  expect(JSON.stringify(request.history)).not.toContain('2001-01-01');
  expect(answer.text).not.toContain('polluted');
  expect(answer.text).not.toContain('Mallory');
}

async function makeActorWithoutProfile(): Promise<Actor> {
  const account = await createAccount({ role: 'farmer', businessName: 'Fresh Farms', location: 'Ibadan', tuber: ['yam'] });
  const tokens = await signIn(account.email, account.password);
  return {
    role: 'farmer',
    label: 'fresh farmer',
    ...account,
    token: async () => tokens.accessToken,
    signIn: () => signIn(account.email, account.password),
  };
}

describe('mass assignment on every write route', () => {
  beforeAll(async () => {
    [media, catalog, profile] = await Promise.all([
      mongoose.createConnection(mediaMongoUrl()).asPromise(),
      mongoose.createConnection(catalogMongoUrl()).asPromise(),
      mongoose.createConnection(profileMongoUrl()).asPromise(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([media?.close(), catalog?.close(), profile?.close()]);
  });

  const writes = ops.filter((op) => WRITE_METHODS.has(op.method));

  it('every write route has a mass-assignment case', () => {
    expect(writes.map((op) => op.key).filter((key) => !WRITE_CASES[key])).toEqual([]);
  });

  it.each(writes.map((op) => [op.key, op] as const))(
    '%s refuses or ignores farmer_id, business_name, created_at, price_kobo, __proto__, constructor (and an order request’s own fields)',
    async (_key, op) => {
      const make = WRITE_CASES[op.key];
      expect(make, `${op.key} is a new write route: add a mass-assignment case`).toBeDefined();
      const declared = new Set(Object.keys(op.jsonBody?.properties ?? {}));
      const strict = op.jsonBody?.additionalProperties === false;
      for (const field of [...HOSTILE, ...(make!().alsoFields ?? [])]) {
        const testCase = make!();
        if (declared.has(field) && !testCase.checksDeclared) continue;
        const answer = await testCase.send(field);
        expect(answer.status, `${op.key} + ${field}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        if (strict && !declared.has(field)) {
          // The schema says unknown fields are refused: the route must do as its schema says.
          expect(answer.status, `${op.key} + ${field}: ${answer.text.slice(0, 200)}`).toBe(400);
          denialChecked();
        } else if (answer.status === 400) {
          denialChecked();
        } else {
          await testCase.proveIgnored(field, answer);
          denialChecked();
        }
      }
    },
  );
});
