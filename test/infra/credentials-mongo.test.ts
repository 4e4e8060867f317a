// The MongoDB wire (FerretDB 1.x on PostgreSQL) signs every client in, and each service's user
// reaches only its own database (docs/adr/0017): FerretDB hands the credentials to PostgreSQL,
// where each service is a role with rights on its own schema only.
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mongoUrl } from '../support/credentials.js';

const clients: MongoClient[] = [];
async function as(db: string, user?: string, url = mongoUrl(db, user)): Promise<MongoClient> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  clients.push(client);
  await client.connect();
  return client;
}

const collection = `credentials_test_${Date.now()}`;
let admin: MongoClient;

beforeAll(async () => {
  admin = await as('catalog');
  await admin
    .db('catalog')
    .collection(collection)
    .insertOne({ _id: 'catalog-secret' as never, owner: 'catalog' });
  await admin
    .db('profile')
    .collection(collection)
    .insertOne({ _id: 'profile-own' as never, owner: 'profile' });
});

afterAll(async () => {
  await admin
    .db('catalog')
    .dropCollection(collection)
    .catch(() => undefined);
  await admin
    .db('profile')
    .dropCollection(collection)
    .catch(() => undefined);
  await Promise.allSettled(clients.map((c) => c.close()));
});

describe('the MongoDB wire requires credentials', () => {
  it('refuses a client that gives none', async () => {
    const anonymous = await as(
      'profile',
      undefined,
      mongoUrl('profile')
        .replace(/\/\/[^@]*@/, '//')
        .replace(/\?.*$/, ''),
    );
    await expect(anonymous.db('profile').collection(collection).findOne({})).rejects.toThrow(/auth|password|denied/i);
  });

  it('refuses a service user with a wrong password', async () => {
    // FerretDB 1.x accepts the sign-in and checks the password with PostgreSQL on the first command.
    const wrong = await as('profile', 'profile', mongoUrl('profile', 'profile').replace(/:[^:@/]*@/, ':not-the-password@'));
    await expect(wrong.db('profile').collection(collection).findOne({})).rejects.toThrow(/password authentication failed/i);
  });
});

describe('each service reaches only its own database', () => {
  it('profile reads and writes its own database', async () => {
    const profile = await as('profile', 'profile');
    const own = profile.db('profile').collection(collection);
    expect(await own.findOne({ _id: 'profile-own' as never })).toMatchObject({ owner: 'profile' });
    await own.insertOne({ _id: 'profile-new' as never, owner: 'profile' });
    expect(await own.countDocuments()).toBe(2);
  });

  it('profile cannot read, write or drop the catalog database, nor make a database of its own', async () => {
    const profile = await as('profile', 'profile');
    const theirs = profile.db('catalog').collection(collection);
    await expect(theirs.findOne({})).rejects.toThrow(/permission denied/i);
    await expect(theirs.insertOne({ owner: 'profile' })).rejects.toThrow(/permission denied/i);
    await expect(theirs.deleteMany({})).rejects.toThrow(/permission denied/i);
    await expect(profile.db('catalog').dropDatabase()).rejects.toThrow(/owner|permission denied/i);
    await expect(profile.db(`profile_extra_${Date.now()}`).collection('x').insertOne({})).rejects.toThrow(/permission denied/i);
    expect(await admin.db('catalog').collection(collection).find().toArray()).toEqual([{ _id: 'catalog-secret', owner: 'catalog' }]);
  });

  it('orders works in its own database and cannot read the catalog or profile ones', async () => {
    const orders = await as('orders', 'orders');
    const own = orders.db('orders').collection(collection);
    try {
      await own.insertOne({ _id: 'orders-own' as never, owner: 'orders' });
      expect(await own.findOne({ _id: 'orders-own' as never })).toMatchObject({ owner: 'orders' });
      for (const other of ['catalog', 'profile']) {
        await expect(orders.db(other).collection(collection).findOne({}), other).rejects.toThrow(/permission denied/i);
      }
    } finally {
      await own.drop().catch(() => undefined);
    }
  });

  it('moderation works in its own database and cannot read the catalog or profile ones', async () => {
    const moderation = await as('moderation', 'moderation');
    const own = moderation.db('moderation').collection(collection);
    try {
      await own.insertOne({ _id: 'moderation-own' as never, owner: 'moderation' });
      expect(await own.findOne({ _id: 'moderation-own' as never })).toMatchObject({ owner: 'moderation' });
      for (const other of ['catalog', 'profile']) {
        await expect(moderation.db(other).collection(collection).findOne({}), other).rejects.toThrow(/permission denied/i);
      }
    } finally {
      await own.drop().catch(() => undefined);
    }
  });

  it("a collection the tests' user makes in a service's database is the service's: it may index and drop it", async () => {
    // Otherwise the service could not add its indexes at its next start (the orders service once could not).
    const made = admin.db('orders').collection(`${collection}_by_tests`);
    await made.insertOne({ owner: 'tuber-test' });
    const orders = await as('orders', 'orders');
    const same = orders.db('orders').collection(`${collection}_by_tests`);
    await same.createIndex({ owner: 1 });
    expect(await same.drop()).toBe(true);
  });

  it('media cannot read the profile database', async () => {
    const media = await as('media', 'media');
    await expect(media.db('profile').collection(collection).findOne({})).rejects.toThrow(/permission denied/i);
  });
});
