// Consumers are idempotent: an event delivered twice (or late) has one effect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import mongoose from 'mongoose';
import { FarmerProfileChanged, ImageStored } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { eventually } from '../support/api.js';
import { serviceEnv } from '../support/env.js';

let bus: EventBus;
let catalog: mongoose.Connection;

beforeAll(async () => {
  bus = await EventBus.connect(serviceEnv('catalog').NATS_URL!, 'events-test', pino({ level: 'silent' }));
  catalog = await mongoose.createConnection(serviceEnv('catalog').MONGO_URL!).asPromise();
});
afterAll(async () => {
  await bus?.close();
  await catalog?.close();
});

describe('the catalog service (running) consuming events', () => {
  it('applies a farmer change once, whether delivered twice or followed by an older one', async () => {
    const farmerId = `farmer-${randomUUID()}`;
    const change = (revision: number, business_name: string) =>
      bus.publish(FarmerProfileChanged, { farmer_id: farmerId, business_name, location: 'Ibadan', tuber: ['yam'], revision }, `test:${farmerId}:${revision}:${randomUUID()}`);
    await change(2, 'Second Name');
    await change(2, 'Second Name');
    await change(1, 'First Name (late)');
    const farmers = catalog.collection('farmer');
    const found = await eventually(() => farmers.find({ farmer_id: farmerId }).toArray(), (docs) => docs.length > 0 && docs[0]!.revision === 2);
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
    await eventually(() => images.countDocuments({ image_id: imageId }), (n) => n > 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await images.countDocuments({ image_id: imageId })).toBe(1);
  });
});
