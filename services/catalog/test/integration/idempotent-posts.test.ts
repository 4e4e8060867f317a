// Product posts with an Idempotency-Key (issue 24, ADR 0059), against the running catalog through the
// gateway. Every try of a keyed post makes the one product the key names and answers the same 201; ten
// tries at once meet at the unique index on (farmer, key) in the database — the same place two replicas
// meet, since a replica keeps nothing of a key in its memory. A post without the key works as before.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { PUBLIC_URL } from '../../../../test/support/env.js';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { POST_KEY_KEPT_MS, postFingerprint } from '../../src/domain/post-keys.js';
import { farmerWithProfile, patchProduct, postProduct, productBody, uploadPhotos } from './farmer-support.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let catalog: mongoose.Connection;

beforeAll(async () => {
  [farmer, otherFarmer] = await Promise.all([
    farmerWithProfile({ businessName: 'Key Farms', location: 'Ibadan', tuber: ['yam'] }),
    farmerWithProfile({ businessName: 'Other Key Farms', location: 'Oyo', tuber: ['yam'] }),
  ]);
  catalog = await mongoose.createConnection(mongoUrl('catalog', 'catalog')).asPromise();
  // The catalog hears of each farmer by event: a first post waits for that (409 naming the profile).
  for (const who of [farmer, otherFarmer]) {
    const photos = await uploadPhotos(who, 2);
    expect(
      (
        await postProduct(
          who,
          productBody(
            photos.map((p) => p.id),
            { product_name: 'First yam' },
          ),
        )
      ).status,
    ).toBe(201);
  }
});

afterAll(async () => {
  await catalog?.close();
  await Promise.all([farmer, otherFarmer].filter(Boolean).map((who) => deleteAccount(who.id)));
});

interface Answer {
  status: number;
  text: string;
  body: { product_id?: string; code?: string; revision?: number; message?: string };
}

const newKey = () => randomBytes(16).toString('hex');

async function keyedPost(who: TestAccount, body: unknown, key?: string): Promise<Answer> {
  const response = await fetch(`${PUBLIC_URL}/api/catalog/products`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${who.accessToken}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : {} };
}

/** A product body with two fresh photos of `who` and a name no other test uses. */
async function freshBody(who: TestAccount, label: string) {
  const photos = await uploadPhotos(who, 2);
  return productBody(
    photos.map((p) => p.id),
    { product_name: `${label} ${randomBytes(3).toString('hex')}` },
  );
}

const productsNamed = (name: string) => catalog.collection('product').countDocuments({ product_name: name });

describe('a product post with an Idempotency-Key', () => {
  it('sent twice makes one product, and the repeat answers the first 201 byte for byte', async () => {
    const body = await freshBody(farmer, 'Twice yam');
    const key = newKey();
    const first = await keyedPost(farmer, body, key);
    const again = await keyedPost(farmer, body, `"${key}"`); // the draft's quoted form is the same key
    expect(first.status, first.text).toBe(201);
    expect(again.status, again.text).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await productsNamed(body.product_name)).toBe(1);
  });

  it('sent ten times at once makes one product, and all ten answers are the same', async () => {
    const body = await freshBody(farmer, 'Ten at once yam');
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => keyedPost(farmer, body, key)));
    expect(
      answers.map((a) => a.status),
      answers.map((a) => a.text.slice(0, 200)).join('\n'),
    ).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await productsNamed(body.product_name)).toBe(1);
    // Its photos are that product's, once each.
    const product = await catalog.collection('product').findOne({ product_name: body.product_name });
    expect(product?.image_ids).toEqual(body.image_ids);
    expect(await catalog.collection('image').countDocuments({ image_id: { $in: body.image_ids }, product_id: product?.product_id })).toBe(
      2,
    );
  });

  it('with another body is refused 422 IDEMPOTENCY_KEY_REUSED and makes nothing', async () => {
    const key = newKey();
    const first = await keyedPost(farmer, await freshBody(farmer, 'Keyed yam'), key);
    expect(first.status, first.text).toBe(201);
    const other = await freshBody(farmer, 'Another yam');
    const refused = await keyedPost(farmer, other, key);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'This Idempotency-Key was already used for another product. Send a new key for each new product.',
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await productsNamed(other.product_name)).toBe(0);
    // Its photos stay free for a post with a key of its own.
    expect((await keyedPost(farmer, other, newKey())).status).toBe(201);
  });

  it("from another farmer with the same key is that farmer's own product", async () => {
    const key = newKey();
    const mine = await keyedPost(farmer, await freshBody(farmer, 'My yam'), key);
    const theirs = await keyedPost(otherFarmer, await freshBody(otherFarmer, 'Their yam'), key);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.product_id).not.toBe(mine.body.product_id);
    expect(theirs.text).toContain('Other Key Farms');
  });

  it('answered before is answered the same after the product was edited (the first answer is kept)', async () => {
    const body = await freshBody(farmer, 'Edited yam');
    const key = newKey();
    const first = await keyedPost(farmer, body, key);
    expect(first.status, first.text).toBe(201);
    expect((await patchProduct(farmer, first.body.product_id!, { quantity: 3 })).status).toBe(200);
    const again = await keyedPost(farmer, body, key);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.body.revision).toBe(1);
  });

  it('left unfinished by a replica that died after taking the key and the photos is finished as that product', async () => {
    const body = await freshBody(farmer, 'Orphaned yam');
    const key = newKey();
    const productId = randomUUID();
    // What a replica killed mid-post leaves: the key taken with its product id, the photos taken, no product.
    await catalog.collection('product_post_key').insertOne({
      farmer_id: farmer.id,
      key,
      fingerprint: postFingerprint(body),
      product_id: productId,
      created_at: new Date(),
    });
    await catalog.collection('image').updateMany({ image_id: { $in: body.image_ids } }, { $set: { product_id: productId } });
    const finished = await keyedPost(farmer, body, key);
    expect(finished.status, finished.text).toBe(201);
    expect(finished.body.product_id).toBe(productId);
    expect(await productsNamed(body.product_name)).toBe(1);
  });

  it('is kept for a day: after that the same key is a new post', async () => {
    const body = await freshBody(farmer, 'Day old yam');
    const key = newKey();
    const first = await keyedPost(farmer, body, key);
    expect(first.status, first.text).toBe(201);
    await catalog
      .collection('product_post_key')
      .updateOne({ farmer_id: farmer.id, key }, { $set: { created_at: new Date(Date.now() - POST_KEY_KEPT_MS - 60_000) } });
    // The photos went with the first product: a new post of the same key needs new ones.
    const later = { ...(await freshBody(farmer, 'Next day yam')) };
    const next = await keyedPost(farmer, later, key);
    expect(next.status, next.text).toBe(201);
    expect(next.body.product_id).not.toBe(first.body.product_id);
    expect(await catalog.collection('product_post_key').countDocuments({ farmer_id: farmer.id, key })).toBe(1);
  });

  it('refuses a key that is not letters, digits and . _ : - (1 to 128) with 400', async () => {
    const body = await freshBody(farmer, 'Badly keyed yam');
    for (const key of ['', 'has space', 'x'.repeat(129), '"unclosed']) {
      const answer = await keyedPost(farmer, body, key);
      expect(answer.status, `key ${JSON.stringify(key)}: ${answer.text}`).toBe(400);
    }
    expect(await productsNamed(body.product_name)).toBe(0);
  });
});

describe('a product post without an Idempotency-Key (older farmer releases)', () => {
  it('makes a product each time, as before', async () => {
    const first = await freshBody(farmer, 'Unkeyed yam');
    const second = { ...(await freshBody(farmer, 'x')), product_name: first.product_name };
    expect((await keyedPost(farmer, first)).status).toBe(201);
    expect((await keyedPost(farmer, second)).status).toBe(201);
    expect(await productsNamed(first.product_name)).toBe(2);
  });
});
