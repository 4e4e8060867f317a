// Issue 12 (ADR 0033): the catalog's stock follows the farmers' decisions on order requests. An
// OrderAccepted takes the accepted quantities off each product, an OrderCancelled of an accepted
// request gives them back — once per request and product however often the event arrives (here:
// the same event published twice under different message ids, so JetStream's de-duplication does
// not hide the second). Never below 0, sold out at 0, available again only when a take sold it out.
// Each change is a ProductChanged carrying the keys of the changes applied (stock_ops). The events
// are published on NATS directly, as the orders service publishes them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { OrderAccepted, OrderCancelled, ProductChanged, ProductCreated, type EventPayload } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { natsUrl } from '../../../../test/support/credentials.js';
import { farmerWithProfile, getProduct, patchProduct, postProduct, productBody, uploadPhotos } from './farmer-support.js';

let farmer: TestAccount;
let buyer: TestAccount;
let bus: EventBus;
const subscriptions: Subscription[] = [];
const changes: { messageId: string; payload: EventPayload<typeof ProductChanged> }[] = [];
const created: EventPayload<typeof ProductCreated>[] = [];

function follow(subject: string, into: (message: Msg) => void) {
  const subscription = bus.connection.subscribe(subject);
  subscriptions.push(subscription);
  void (async () => {
    for await (const message of subscription as AsyncIterable<Msg>) into(message);
  })();
}

beforeAll(async () => {
  [farmer, buyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Stock Farm', location: 'Ogbomosho', tuber: ['yam', 'cassava'] }),
    signedInAccount({ role: 'buyer' }),
  ]);
  bus = await EventBus.connect(natsUrl(), 'order-stock-test', pino({ level: 'silent' }));
  follow(ProductChanged.subject, (m) => changes.push({ messageId: m.headers?.get('Nats-Msg-Id') ?? '', payload: m.json() }));
  follow(ProductCreated.subject, (m) => created.push(m.json()));
});

afterAll(async () => {
  for (const subscription of subscriptions) subscription.unsubscribe();
  await bus?.close();
  await Promise.all([farmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

async function newProduct(overrides: Record<string, unknown> = {}): Promise<string> {
  const photos = await uploadPhotos(farmer, 2);
  const posted = await postProduct(
    farmer,
    productBody(
      photos.map((p) => p.id),
      { price: 2000, quantity: 10, ...overrides },
    ),
  );
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  return posted.body.product_id;
}

type Line = { product_id: string; quantity: number; unit?: string };
const orderFields = (requestId: string, lines: Line[], revision: number) => ({
  request_id: requestId,
  number: `TM-${requestId.slice(0, 6).toUpperCase()}`,
  buyer_id: randomUUID(),
  farmer_id: farmer.id,
  lines: lines.map((l) => ({ product_id: l.product_id, unit: l.unit ?? 'kg', quantity: l.quantity, price_kobo: 200_000 })),
  revision,
  at: new Date().toISOString(),
});

/** Publishes the acceptance twice, as two different messages (a redelivery JetStream cannot de-duplicate). */
async function accept(requestId: string, lines: Line[], times = 2) {
  for (let i = 0; i < times; i++)
    await bus.publish(OrderAccepted, orderFields(requestId, lines, 2), `test-accepted:${requestId}:${i}:${randomUUID()}`);
}
async function cancel(requestId: string, lines: Line[], wasAccepted = true, times = 2) {
  for (let i = 0; i < times; i++) {
    await bus.publish(
      OrderCancelled,
      { ...orderFields(requestId, lines, 3), reason: 'Buyer no longer needs it', by: 'buyer', was_accepted: wasAccepted },
      `test-cancelled:${requestId}:${i}:${randomUUID()}`,
    );
  }
}

const productNow = async (productId: string) => (await getProduct(farmer, productId)).body;
const until = (productId: string, done: (p: any) => boolean) => eventually(() => productNow(productId), done);
const changeOf = (productId: string, revision: number) =>
  eventually(
    async () => changes.find((c) => c.payload.product_id === productId && c.payload.revision === revision),
    (found) => found !== undefined,
  );
/** Both consumers have nothing left to deliver or to have acknowledged: every event published so far was handled. */
async function settled() {
  const jsm = await jetstreamManager(bus.connection);
  await eventually(
    async () => Promise.all(['catalog-order-accepted', 'catalog-order-cancelled'].map((name) => jsm.consumers.info('TUBER', name))),
    (infos) => infos.every((info) => info.num_pending === 0 && info.num_ack_pending === 0),
  );
}

describe('an accepted request takes stock, once', () => {
  let productId: string;
  const requestId = randomUUID();

  it('takes the accepted quantity off once, though the event arrives twice', async () => {
    productId = await newProduct({ quantity: 10 });
    await accept(requestId, [{ product_id: productId, quantity: 3 }]);
    const after = await until(productId, (p) => p.quantity !== 10);
    expect(after).toMatchObject({ quantity: 7, kg: 7, status: 'available', revision: 2 });
    await settled();
    // Both deliveries were handled: still one change.
    expect(await productNow(productId)).toMatchObject({ quantity: 7, revision: 2 });
    expect(changes.filter((c) => c.payload.product_id === productId)).toHaveLength(1);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(after.created_at));
  });

  it('announces it as ProductChanged with changed ["stock"] and the key of the change (stock_ops)', async () => {
    const change = await changeOf(productId, 2);
    expect(change?.messageId).toBe(`product-changed:${productId}:2`);
    expect(change?.payload).toEqual({
      product_id: productId,
      farmer_id: farmer.id,
      revision: 2,
      changed: ['stock'],
      price_kobo: 200_000,
      unit: 'kg',
      quantity: 7,
      status: 'available',
      image_ids: expect.any(Array),
      removed_image_ids: [],
      changed_at: expect.any(String),
      product_name: 'White yam',
      stock_ops: [`${requestId}:take`],
      // Issue 27: the price guide's tuber and unit weight.
      tuber_type: 'yam',
      unit_weight_kg: 1,
    });
  });

  it('buyers and the farmer read the new stock (the read model follows)', async () => {
    const mine = await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken });
    expect(mine.body.items.find((p: { product_id: string }) => p.product_id === productId)).toMatchObject({ quantity: 7, revision: 2 });
  });

  it('a cancellation of the accepted request gives it back, once', async () => {
    await cancel(requestId, [{ product_id: productId, quantity: 3 }]);
    expect(await until(productId, (p) => p.quantity !== 7)).toMatchObject({ quantity: 10, status: 'available', revision: 3 });
    await settled();
    expect(await productNow(productId)).toMatchObject({ quantity: 10, revision: 3 });
    expect((await changeOf(productId, 3))?.payload).toMatchObject({
      changed: ['stock'],
      quantity: 10,
      stock_ops: [`${requestId}:take`, `${requestId}:give`],
    });
  });

  it('a cancellation of a request that was never accepted gives nothing', async () => {
    const other = randomUUID();
    await cancel(other, [{ product_id: productId, quantity: 4 }], false);
    await settled();
    expect(await productNow(productId)).toMatchObject({ quantity: 10, revision: 3 });
  });

  it('a farmer’s edit after it carries the keys too, and the edit sees the stock as it is', async () => {
    const edited = await patchProduct(farmer, productId, { price: 2100, revision: 3 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await changeOf(productId, 4))?.payload).toMatchObject({
      changed: ['price', 'price_per_kg'],
      quantity: 10,
      stock_ops: [`${requestId}:take`, `${requestId}:give`],
    });
  });
});

describe('never below 0', () => {
  let productId: string;
  const requestId = randomUUID();

  it('a take larger than the stock stops at 0 (after waiting for gives that might be on their way) and makes the product sold out', async () => {
    productId = await newProduct({ quantity: 2 });
    await accept(requestId, [{ product_id: productId, quantity: 5 }]);
    expect(await until(productId, (p) => p.revision === 2)).toMatchObject({ quantity: 0, kg: 0, status: 'sold_out' });
    await settled();
    expect(await productNow(productId)).toMatchObject({ quantity: 0, revision: 2 });
    expect((await changeOf(productId, 2))?.payload).toMatchObject({ changed: ['stock', 'status'], quantity: 0, status: 'sold_out' });
  }, 30_000);

  it('a buyer reads it as sold out', async () => {
    const read = await api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ quantity: 0, status: 'sold_out' });
  });

  it('its cancellation gives back what was really taken (2, not 5) and makes it available again', async () => {
    await cancel(requestId, [{ product_id: productId, quantity: 5 }]);
    expect(await until(productId, (p) => p.revision === 3)).toMatchObject({ quantity: 2, status: 'available' });
    expect((await changeOf(productId, 3))?.payload).toMatchObject({ changed: ['stock', 'status'], status: 'available' });
  });
});

describe('sold out at exactly 0, and a farmer’s own sold out stays', () => {
  it('a take of the whole stock makes it sold out; a give to a product the farmer marked sold out keeps it sold out', async () => {
    const productId = await newProduct({ quantity: 4 });
    const first = randomUUID();
    await accept(first, [{ product_id: productId, quantity: 4 }], 1);
    expect(await until(productId, (p) => p.revision === 2)).toMatchObject({ quantity: 0, status: 'sold_out' });
    // The farmer restocks 1 kg and says it is sold out anyway (kept for a neighbour).
    const edited = await patchProduct(farmer, productId, { quantity: 1, status: 'sold_out' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await cancel(first, [{ product_id: productId, quantity: 4 }], true, 1);
    expect(await until(productId, (p) => p.revision === 4)).toMatchObject({ quantity: 5, status: 'sold_out' });
  });
});

describe('order of events and odd cases', () => {
  it('a cancellation handled before its acceptance waits for it: the stock ends where it started', async () => {
    const productId = await newProduct({ quantity: 6 });
    const requestId = randomUUID();
    await cancel(requestId, [{ product_id: productId, quantity: 2 }], true, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await accept(requestId, [{ product_id: productId, quantity: 2 }], 1);
    expect(await until(productId, (p) => p.revision === 3)).toMatchObject({ quantity: 6, status: 'available' });
    const take = await changeOf(productId, 2);
    expect(take?.payload).toMatchObject({ quantity: 4, stock_ops: [`${requestId}:take`] });
  }, 30_000);

  it('a take that finds the stock short waits for a give on its way: B took all, B is cancelled, A accepted in between', async () => {
    // The orders service accepted A once B's cancellation freed B's 2 kg; here A's take arrives between B's
    // take and B's give. Taking what there was (0) and then giving B's 2 back left 2 kg showing while A held 1.
    const productId = await newProduct({ quantity: 2 });
    const [b, a] = [randomUUID(), randomUUID()];
    await accept(b, [{ product_id: productId, quantity: 2 }], 1);
    expect(await until(productId, (p) => p.revision === 2)).toMatchObject({ quantity: 0, status: 'sold_out' });
    await accept(a, [{ product_id: productId, quantity: 1 }], 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await productNow(productId), 'A waits: nothing clamped yet').toMatchObject({ quantity: 0, revision: 2 });
    await cancel(b, [{ product_id: productId, quantity: 2 }], true, 1);
    expect(await until(productId, (p) => p.revision === 4)).toMatchObject({ quantity: 1, status: 'available' });
    await settled();
    expect(await productNow(productId)).toMatchObject({ quantity: 1, revision: 4 });
    const take = (await changeOf(productId, 4))?.payload;
    expect(take?.stock_ops).toEqual(expect.arrayContaining([`${a}:take`, `${b}:take`, `${b}:give`]));
  }, 30_000);

  it('one request with lines of two products takes from each', async () => {
    const [a, b] = [await newProduct({ quantity: 10 }), await newProduct({ quantity: 8 })];
    await accept(randomUUID(), [
      { product_id: a, quantity: 1.5 },
      { product_id: b, quantity: 8 },
    ]);
    expect(await until(a, (p) => p.revision === 2)).toMatchObject({ quantity: 8.5, status: 'available' });
    expect(await until(b, (p) => p.revision === 2)).toMatchObject({ quantity: 0, status: 'sold_out' });
  });

  it('a product deleted meanwhile, or another farmer’s, is left alone and the event acknowledged', async () => {
    const gone = await newProduct({ quantity: 5 });
    expect((await api('DELETE', `/api/catalog/products/${gone}`, { token: farmer.accessToken })).status).toBe(204);
    const kept = await newProduct({ quantity: 5 });
    await bus.publish(
      OrderAccepted,
      {
        ...orderFields(
          randomUUID(),
          [
            { product_id: kept, quantity: 1 },
            { product_id: gone, quantity: 1 },
          ],
          2,
        ),
        farmer_id: randomUUID(),
      },
      `test-accepted:${randomUUID()}`,
    );
    await accept(randomUUID(), [{ product_id: gone, quantity: 1 }], 1);
    await settled();
    expect(await productNow(kept)).toMatchObject({ quantity: 5, revision: 1 });
  });
});

describe('product events carry what the orders service keeps', () => {
  it('ProductCreated has the name, price, unit, stock, status and revision', async () => {
    const productId = await newProduct({ quantity: 12, unit: 'heap', unit_weight_kg: 3, price: 1500, product_name: 'Heap of cocoyam' });
    const event = await eventually(
      async () => created.find((e) => e.product_id === productId),
      (found) => found !== undefined,
    );
    expect(event).toMatchObject({
      product_id: productId,
      farmer_id: farmer.id,
      product_name: 'Heap of cocoyam',
      price_kobo: 150_000,
      unit: 'heap',
      quantity: 12,
      status: 'available',
      revision: 1,
    });
  });

  it('ProductChanged of an edit always has the name', async () => {
    const productId = await newProduct({ quantity: 3 });
    expect((await patchProduct(farmer, productId, { quantity: 4 })).status).toBe(200);
    const change = await changeOf(productId, 2);
    expect(change?.payload).toMatchObject({ product_name: 'White yam', changed: ['quantity', 'kg'], quantity: 4 });
    expect(change?.payload).not.toHaveProperty('stock_ops');
  });
});
