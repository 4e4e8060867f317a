// Accounts are bound by subject only (issue 9, item 4), through the gateway with the running
// services: a profile is found by the token's `sub`, never by e-mail; an account deleted in
// Keycloak takes its profile and a farmer's products with it (auth service → AccountDeleted →
// profile and catalog); an e-mail change reaches the profile only once the address is verified.
import { afterAll, describe, expect, it } from 'vitest';
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import { api, eventually, imageForm, photo } from '../support/api.js';
import { deleteAccount } from '../support/accounts.js';
import { claimsOf, signInWithPassword } from '../support/keycloak.js';

const keycloakUrl = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`;
/** The auth service reads Keycloak's events every 2 s; events then cross NATS. */
const EVENT_TIMEOUT_MS = 30_000;

async function admin() {
  const client = new KcAdminClient({ baseUrl: keycloakUrl, realmName: 'tuber' });
  await client.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  return client;
}

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map(deleteAccount));
});

interface Person {
  id: string;
  email: string;
  password: string;
  accessToken: string;
}

/** A verified account with this address (the test accounts' helper picks its own address). */
async function person(email: string, role: 'buyer' | 'farmer', names: { first: string; business?: string }): Promise<Person> {
  const kc = await admin();
  const password = `pw-${randomUUID()}`;
  const attributes: Record<string, string[]> = { phone: ['+2348030000000'], user_type: [role], pending_profile: ['true'] };
  if (role === 'farmer') Object.assign(attributes, { business_name: [names.business ?? 'Farm'], location: ['Ibadan'], tuber: ['yam'] });
  const { id } = await kc.users.create({
    username: email,
    email,
    firstName: names.first,
    lastName: 'Test',
    enabled: true,
    emailVerified: true,
    attributes,
    credentials: [{ type: 'password', value: password, temporary: false }],
  });
  made.push(id);
  const realmRole = await kc.roles.findOneByName({ name: role });
  await kc.users.addRealmRoleMappings({ id, roles: [{ id: realmRole!.id!, name: realmRole!.name! }] });
  const { accessToken } = await signInWithPassword(email, password);
  return { id, email, password, accessToken };
}

const address = (what: string) => `${what}-${randomUUID().slice(0, 8)}@test.tuber.local`;

/**
 * Deletes the account the way an administrator would. First waits for the auth service to have
 * cleared pending_profile after the profile was created: Keycloak refuses (500, optimistic lock) a
 * deletion that crosses an attribute update.
 */
async function deleteInKeycloak(id: string) {
  const kc = await admin();
  const settled = await eventually(
    () => kc.users.findOne({ id }),
    (user) => user?.attributes?.pending_profile?.[0] === 'false',
  );
  expect(settled?.attributes?.pending_profile).toEqual(['false']);
  await kc.users.del({ id });
}

describe('a released e-mail address', () => {
  it("never shows the first account's profile to a second account that holds it, even before the deletion is known", async () => {
    const email = address('reused');
    const first = await person(email, 'buyer', { first: 'Adaeze' });
    expect((await api('POST', '/api/profile/me', { token: first.accessToken })).status).toBe(201);

    // The first account goes, and a second one takes the address at once.
    await deleteInKeycloak(first.id);
    const second = await person(email, 'buyer', { first: 'Bisi' });
    expect(claimsOf(second.accessToken).email).toBe(email);

    const mine = await api('GET', '/api/profile/me', { token: second.accessToken });
    expect(mine).toMatchObject({ status: 404, body: { message: 'No profile has been created for this account yet.' } });
    const created = await api('POST', '/api/profile/me', { token: second.accessToken });
    expect(created.status).toBe(201);
    expect(created.body.profile).toMatchObject({ user_id: second.id, firstname: 'Bisi', email });
    expect(JSON.stringify(created.body)).not.toContain('Adaeze');
  });

  it("takes a deleted farmer's profile and products with it, so a new account with the address inherits nothing", async () => {
    const email = address('farmer-gone');
    const farmer = await person(email, 'farmer', { first: 'Chidi', business: 'Chidi Yams' });
    const buyer = await person(address('watcher'), 'buyer', { first: 'Watcher' });
    expect((await api('POST', '/api/profile/me', { token: farmer.accessToken })).status).toBe(201);

    const images = [];
    for (const hue of [30, 90]) {
      const image = await api('POST', '/api/media/images', {
        token: farmer.accessToken,
        form: imageForm(await photo(640, 480, hue), 'yam.jpg'),
      });
      expect(image.status).toBe(201);
      images.push(image.body as { image_id: string; url: string });
    }
    const product = await eventually(
      () =>
        api('POST', '/api/catalog/products', {
          token: farmer.accessToken,
          json: {
            product_name: 'White yam',
            description: 'Freshly harvested white yam tubers from our farm',
            price: 2500,
            kg: 10,
            tuber_type: 'yam',
            image_ids: images.map((image) => image.image_id),
            cultural: 'New Yam festival',
          },
        }),
      (answer) => answer.status !== 409, // the catalog learns of the farmer by event
    );
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const productId = product.body.product_id as string;
    expect((await api('GET', `/api/profile/farmers/${farmer.id}/contact`, { token: buyer.accessToken })).status).toBe(200);

    await deleteInKeycloak(farmer.id);

    // The profile, the contact card and the product go; the product's photo is removed by the media service.
    // (eventually() hands back its last try when time runs out: each outcome is asserted.)
    const contact = await eventually(
      () => api('GET', `/api/profile/farmers/${farmer.id}/contact`, { token: buyer.accessToken }),
      (answer) => answer.status === 404,
      EVENT_TIMEOUT_MS,
    );
    expect(contact.status).toBe(404);
    const gone = await eventually(
      () => api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken }),
      (answer) => answer.status === 404,
      EVENT_TIMEOUT_MS,
    );
    expect(gone.status).toBe(404);
    const feed = await api('GET', '/api/catalog/products?limit=50', { token: buyer.accessToken });
    expect(JSON.stringify(feed.body)).not.toContain(productId);
    const photoStatus = await eventually(
      () => fetch(images[0]!.url).then((r) => r.status),
      (status) => status === 404 || status === 403,
      EVENT_TIMEOUT_MS,
    );
    expect([403, 404]).toContain(photoStatus);
    // A token the deleted account still holds cannot make the profile again.
    const again = await api('POST', '/api/profile/me', { token: farmer.accessToken });
    expect(again).toMatchObject({ status: 400, body: { message: 'This account has been deleted.' } });

    // A new farmer with the same address starts with nothing.
    const successor = await person(email, 'farmer', { first: 'Dayo', business: 'Dayo Farms' });
    expect((await api('GET', '/api/profile/me', { token: successor.accessToken })).status).toBe(404);
    expect((await api('POST', '/api/profile/me', { token: successor.accessToken })).body.profile).toMatchObject({
      user_id: successor.id,
      business_name: 'Dayo Farms',
    });
    const products = await api('GET', '/api/catalog/products/mine', { token: successor.accessToken });
    expect(products).toMatchObject({ status: 200, body: { items: [] } });
  });
});

describe("an account's e-mail change", () => {
  it('reaches the profile only once the new address is verified', async () => {
    const before = address('mover');
    const moved = await person(before, 'buyer', { first: 'Efe' });
    expect((await api('POST', '/api/profile/me', { token: moved.accessToken })).status).toBe(201);
    const kc = await admin();
    const after = address('moved');

    // An unverified address links nothing: the profile keeps the verified one.
    const user = (await kc.users.findOne({ id: moved.id }))!;
    await kc.users.update({ id: moved.id }, { ...user, email: after, emailVerified: false });
    // A marker change after it: once the marker's event has been handled, so has the unverified one.
    const marker = address('marker');
    const markerPerson = await person(marker, 'buyer', { first: 'Marker' });
    expect((await api('POST', '/api/profile/me', { token: markerPerson.accessToken })).status).toBe(201);
    const markerUser = (await kc.users.findOne({ id: markerPerson.id }))!;
    const markerAfter = address('marker-moved');
    await kc.users.update({ id: markerPerson.id }, { ...markerUser, email: markerAfter, emailVerified: true });
    const markerProfile = await eventually(
      () => api('GET', '/api/profile/me', { token: markerPerson.accessToken }),
      (answer) => answer.body?.email === markerAfter,
      EVENT_TIMEOUT_MS,
    );
    expect(markerProfile.body.email).toBe(markerAfter);
    expect((await api('GET', '/api/profile/me', { token: moved.accessToken })).body.email).toBe(before);

    // Verified: the profile follows.
    const unverified = (await kc.users.findOne({ id: moved.id }))!;
    await kc.users.update({ id: moved.id }, { ...unverified, emailVerified: true });
    const profile = await eventually(
      () => api('GET', '/api/profile/me', { token: moved.accessToken }),
      (answer) => answer.body?.email === after,
      EVENT_TIMEOUT_MS,
    );
    expect(profile.body).toMatchObject({ user_id: moved.id, email: after, firstname: 'Efe' });
  });
});
