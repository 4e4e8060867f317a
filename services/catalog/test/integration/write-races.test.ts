// Writes of one product from different places at the same moment (ADR 0030): a farmer deleting
// products while the catalog copies the farmer's new business name onto them (FarmerProfileChanged,
// published here the way the profile service publishes it). FerretDB 1.x writes a whole document
// back on every update, so without the product lock around the consumer's writes, a rename applied
// during a delete can put back the product the delete had just marked: the delete answers 204 and
// the product stays, its photos never removed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import pino from 'pino';
import { FarmerProfileChanged } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl, natsUrl } from '../../../../test/support/credentials.js';
import { farmerWithProfile, postProduct, productBody, uploadPhotos } from './farmer-support.js';

const PRODUCTS = 12;
const RENAMES = 40;
let farmer: TestAccount;
let bus: EventBus;
let catalog: mongoose.Connection;

beforeAll(async () => {
  farmer = await farmerWithProfile({ businessName: 'Race Farm', location: 'Ogbomosho', tuber: ['yam'] });
  bus = await EventBus.connect(natsUrl(), 'catalog-write-races-test', pino({ level: 'silent' }));
  catalog = await mongoose.createConnection(mongoUrl('catalog', 'catalog')).asPromise();
});

afterAll(async () => {
  await bus?.close();
  await catalog?.close();
  if (farmer) await deleteAccount(farmer.id);
});

describe('a delete racing a rename of its farmer', () => {
  it('removes every product it answered 204 for, and the products left carry the last name', async () => {
    const ids: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const photos = await uploadPhotos(farmer, 2);
      const posted = await postProduct(
        farmer,
        productBody(
          photos.map((p) => p.id),
          { product_name: `Race yam ${i}` },
        ),
      );
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      ids.push(posted.body.product_id);
    }
    const products = catalog.collection('product');
    const start = (await catalog.collection('farmer').findOne({ farmer_id: farmer.id }))?.revision as number;
    expect(start, 'the catalog knows the farmer').toBeGreaterThan(0);

    // Renames published back to back (each copied onto every product), deletes of half the products meanwhile.
    const lastName = `Race Farm ${RENAMES}`;
    const renames = (async () => {
      for (let r = 1; r <= RENAMES; r++) {
        const payload = {
          farmer_id: farmer.id,
          business_name: `Race Farm ${r}`,
          location: 'Ogbomosho',
          tuber: ['yam'],
          revision: start + r,
        };
        await bus.publish(FarmerProfileChanged, payload as never, `race-rename:${farmer.id}:${r}:${randomUUID()}`);
      }
    })();
    const deleted = ids.filter((_, i) => i % 2 === 0);
    const deletes = (async () => {
      // Each at its own moment while the renames are being copied.
      return Promise.all(
        deleted.map(async (id, i) => {
          await new Promise((resolve) => setTimeout(resolve, 30 + i * 25));
          return (await api('DELETE', `/api/catalog/products/${id}`, { token: farmer.accessToken })).status;
        }),
      );
    })();
    const [answers] = await Promise.all([deletes, renames]);
    expect(answers).toEqual(deleted.map(() => 204));

    const settled = await eventually(
      async () => ({
        left: await products.countDocuments({ product_id: { $in: deleted } }),
        named: await products.countDocuments({ product_id: { $in: ids }, business_name: lastName }),
      }),
      (now) => now.left === 0 && now.named === PRODUCTS - deleted.length,
      30_000,
    );
    expect(settled.left, 'deleted products still in the catalog').toBe(0);
    expect(settled.named, 'products left carrying the last name').toBe(PRODUCTS - deleted.length);
  });
});
