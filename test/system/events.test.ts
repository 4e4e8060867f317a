// Consumers are idempotent: an event delivered twice (or late) has one effect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import mongoose from 'mongoose';
import { FarmerProfileChanged, ImageRemoved, ImageStored, ProductCreated, ProductDeleted } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { api, eventually, imageForm, photo } from '../support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { serviceEnv } from '../support/env.js';

let bus: EventBus;
let catalog: mongoose.Connection;
let media: mongoose.Connection;
let farmer: TestAccount;

beforeAll(async () => {
  bus = await EventBus.connect(serviceEnv('catalog').NATS_URL!, 'events-test', pino({ level: 'silent' }));
  catalog = await mongoose.createConnection(serviceEnv('catalog').MONGO_URL!).asPromise();
  media = await mongoose.createConnection(serviceEnv('media').MONGO_URL!).asPromise();
  farmer = await signedInAccount({ role: 'farmer' });
});
afterAll(async () => {
  await bus?.close();
  await catalog?.close();
  await media?.close();
  if (farmer) await deleteAccount(farmer.id);
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));

describe('the catalog service (running) consuming events', () => {
  it('applies a farmer change once, whether delivered twice or followed by an older one', async () => {
    const farmerId = `farmer-${randomUUID()}`;
    const change = (revision: number, business_name: string) =>
      bus.publish(
        FarmerProfileChanged,
        { farmer_id: farmerId, business_name, location: 'Ibadan', tuber: ['yam'], revision },
        `test:${farmerId}:${revision}:${randomUUID()}`,
      );
    await change(2, 'Second Name');
    await change(2, 'Second Name');
    await change(1, 'First Name (late)');
    const farmers = catalog.collection('farmer');
    const found = await eventually(
      () => farmers.find({ farmer_id: farmerId }).toArray(),
      (docs) => docs.length > 0 && docs[0]!.revision === 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // give the late event time to (not) apply
    const after = await farmers.find({ farmer_id: farmerId }).toArray();
    expect(found).toHaveLength(1);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ business_name: 'Second Name', revision: 2 });
  });

  it('records a stored image once when its event comes twice', async () => {
    const imageId = randomUUID();
    const payload = { image_id: imageId, farmer_id: 'f', url: 'u', card_url: 'c', thumb_url: 't', stored_at: new Date().toISOString() };
    await bus.publish(ImageStored, payload, `test:image:${imageId}:a`);
    await bus.publish(ImageStored, payload, `test:image:${imageId}:b`);
    const images = catalog.collection('image');
    await eventually(
      () => images.countDocuments({ image_id: imageId }),
      (n) => n > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await images.countDocuments({ image_id: imageId })).toBe(1);
  });

  it('keeps a removed image removed when a late ImageStored for it arrives afterwards', async () => {
    const imageId = randomUUID();
    const stored = { image_id: imageId, farmer_id: 'f', url: 'u', card_url: 'c', thumb_url: 't', stored_at: new Date().toISOString() };
    await bus.publish(
      ImageRemoved,
      { image_id: imageId, farmer_id: 'f', reason: 'never-attached', removed_at: new Date().toISOString() },
      `test:removed:${imageId}`,
    );
    const images = catalog.collection('image');
    await eventually(
      () => images.findOne({ image_id: imageId }),
      (doc) => doc?.removed === true,
    );
    await bus.publish(ImageStored, stored, `test:image:${imageId}:late`);
    await settle();
    expect(await images.find({ image_id: imageId }).toArray()).toEqual([expect.objectContaining({ removed: true })]);
  });
});

describe('the media service (running) consuming events', () => {
  it("attaches and removes a product's photos once, whether each event comes once or twice, and tells the catalog", async () => {
    const uploads = await Promise.all(
      [1, 2].map(
        async () =>
          (await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(await photo(200, 150), 'twice.jpg') })).body,
      ),
    );
    const imageIds = uploads.map((u) => u.image_id as string);
    const productId = `product-${randomUUID()}`;
    const created = { product_id: productId, farmer_id: farmer.id, image_ids: imageIds, created_at: new Date().toISOString() };
    await bus.publish(ProductCreated, created, `test:created:${productId}:a`);
    await bus.publish(ProductCreated, created, `test:created:${productId}:b`);
    const records = media.collection('image');
    const attached = await eventually(
      () => records.countDocuments({ image_id: { $in: imageIds }, product_id: productId }),
      (n) => n === 2,
    );
    expect(attached).toBe(2);

    const deleted = { product_id: productId, farmer_id: farmer.id, image_ids: imageIds, deleted_at: new Date().toISOString() };
    await bus.publish(ProductDeleted, deleted, `test:deleted:${productId}:a`);
    await bus.publish(ProductDeleted, deleted, `test:deleted:${productId}:b`);
    expect(
      await eventually(
        () => records.countDocuments({ image_id: { $in: imageIds } }),
        (n) => n === 0,
      ),
    ).toBe(0);
    for (const upload of uploads) {
      for (const url of [upload.url, upload.card_url, upload.thumb_url]) expect([403, 404]).toContain((await fetch(url)).status);
    }
    // The catalog heard of each removal (once is enough: a tombstone per image).
    const tombstones = await eventually(
      () =>
        catalog
          .collection('image')
          .find({ image_id: { $in: imageIds }, removed: true })
          .toArray(),
      (docs) => docs.length === 2,
    );
    expect(tombstones).toHaveLength(2);
  });
});
