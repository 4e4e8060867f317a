// Product posts are counted per farmer (token subject) by the running catalog, through the
// gateway: invalid posts count too, the 61st in 10 minutes gets 429 saying when to try again,
// and another farmer is not affected. (Redis away → 503: services/kit/test/integration/limits.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { PRODUCT_POST_LIMIT } from '../../src/routes/farmer-products.js';

let farmer: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  [farmer, other] = await Promise.all([signedInAccount({ role: 'farmer' }), signedInAccount({ role: 'farmer' })]);
});
afterAll(async () => {
  await Promise.all([farmer, other].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const post = (account: TestAccount) => api('POST', '/api/catalog/products', { token: account.accessToken, json: { product_name: '' } });

describe('product posts per farmer', () => {
  it(`answer 429 after ${PRODUCT_POST_LIMIT.max} in ${PRODUCT_POST_LIMIT.windowSeconds / 60} minutes`, async () => {
    expect(PRODUCT_POST_LIMIT).toEqual({ max: 60, windowSeconds: 600 });
    for (let i = 0; i < PRODUCT_POST_LIMIT.max; i++) expect((await post(farmer)).status).toBe(400);
    const limited = await post(farmer);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many product posts\. Please wait \d+ seconds and try again\.$/),
    });
    expect((await post(other)).status).toBe(400);
  });

  it('are declared to answer 429 and 503 in the OpenAPI document', async () => {
    const doc = (await api('GET', '/api/catalog/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/catalog/products'].post.responses)).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
  });
});
