// A product post sent again (issue 24, ADR 0059). A post whose answer is lost — its replica killed with
// it in hand, a phone's network dropping after the send — is sent again by the gateway or by the
// farmer's app. Before, the catalog knew nothing of the first try: the repeat was refused 409 "These
// photos already belong to another product" although the product had been made (the farmer told it
// failed), and two tries at once could both take the photos on FerretDB and make two products. Now a
// post carries an Idempotency-Key: every try of it answers the same 201 and product, there is one
// product, the key with another body is refused 422 IDEMPOTENCY_KEY_REUSED, and one farmer's key
// never reaches another farmer's post.
// POST_RETRY_TARGET=http://127.0.0.1:<port> sends the posts to one catalog process directly (the code
// before the change, started beside the stack, to see these cases fail there).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { productBody, uploadPhoto } from './support/objects.js';
import { call, PUBLIC_URL, sleep } from './support/stack.js';

const TARGET = (process.env.POST_RETRY_TARGET ?? PUBLIC_URL).replace(/\/$/, '');

let farmer: Actor;
let other: Actor;
beforeAll(async () => {
  [farmer, other] = await Promise.all([
    makeActor('retrying farmer', { role: 'farmer', businessName: 'Retry Farms', location: 'Ibadan', tuber: ['yam'] }),
    makeActor('other farmer', { role: 'farmer', businessName: 'Other Farms', location: 'Oyo', tuber: ['yam'] }),
  ]);
}, 120_000);
afterAll(() => disposeCast({ farmer, other }));

const newKey = () => `"${randomBytes(16).toString('hex')}"`;

interface Posted {
  status: number;
  text: string;
  body: { product_id?: string; code?: string; message?: string };
}

/** One try of a post, as the gateway or the app sends it; waits while the catalog has not yet heard of the farmer. */
async function post(who: Actor, body: unknown, key?: string): Promise<Posted> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${TARGET}/api/catalog/products`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await who.token()}`,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as Posted['body']) : {};
    if (response.status === 409 && /profile/i.test(parsed.message ?? '') && Date.now() < deadline) {
      await sleep(300);
      continue;
    }
    return { status: response.status, text, body: parsed };
  }
}

/** How many of the farmer's products carry this name. */
async function productsNamed(who: Actor, name: string): Promise<number> {
  const mine = await call('GET', '/api/catalog/products/mine', { token: await who.token() });
  expect(mine.status).toBe(200);
  return (mine.body.items as { product_name: string }[]).filter((p) => p.product_name === name).length;
}

const freshBody = async (who: Actor, name: string) => productBody([await uploadPhoto(who), await uploadPhoto(who)], { product_name: name });

describe('a product post sent again', () => {
  it('is answered with the same product when its answer was lost, and the farmer has one product', async () => {
    const name = `Retried yam ${randomBytes(3).toString('hex')}`;
    const body = await freshBody(farmer, name);
    const key = newKey();
    const first = await post(farmer, body, key); // its answer "lost": the app sends it again
    const again = await post(farmer, body, key);
    expect(first.status, first.text.slice(0, 300)).toBe(201);
    expect(again.status, `the repeat: ${again.text.slice(0, 300)}`).toBe(201);
    expect(again.text, 'the same answer, byte for byte').toBe(first.text);
    expect(await productsNamed(farmer, name)).toBe(1);
  });

  it('makes one product when tries overlap (the gateway re-sending it to another replica while the first works)', async () => {
    const name = `Overlapping yam ${randomBytes(3).toString('hex')}`;
    const body = await freshBody(farmer, name);
    const key = newKey();
    const tries = await Promise.all(Array.from({ length: 4 }, () => post(farmer, body, key)));
    expect(
      tries.map((t) => t.status),
      tries.map((t) => t.text.slice(0, 200)).join('\n'),
    ).toEqual([201, 201, 201, 201]);
    expect(new Set(tries.map((t) => t.body.product_id)).size, 'one product id in every answer').toBe(1);
    expect(await productsNamed(farmer, name)).toBe(1);
  });

  it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED), making nothing', async () => {
    const name = `Keyed yam ${randomBytes(3).toString('hex')}`;
    const key = newKey();
    const first = await post(farmer, await freshBody(farmer, name), key);
    expect(first.status, first.text.slice(0, 300)).toBe(201);
    const other = await post(farmer, await freshBody(farmer, `${name} (another)`), key);
    expect(other.status, other.text.slice(0, 300)).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await productsNamed(farmer, `${name} (another)`)).toBe(0);
  });

  it("never answers one farmer's post to another farmer who sends the same key", async () => {
    const key = newKey();
    const mine = await post(farmer, await freshBody(farmer, `Scoped yam ${randomBytes(3).toString('hex')}`), key);
    const theirs = await post(other, await freshBody(other, 'Their yam'), key);
    expect(mine.status, mine.text.slice(0, 300)).toBe(201);
    expect(theirs.status, theirs.text.slice(0, 300)).toBe(201);
    expect(theirs.body.product_id).not.toBe(mine.body.product_id);
    expect(theirs.text).not.toContain('Retry Farms');
  });
});
