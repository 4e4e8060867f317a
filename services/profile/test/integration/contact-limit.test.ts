// Farmers' contact cards (phone, e-mail) are counted per reader (token subject) by the running
// profile service, through the gateway: the 31st look-up in 10 minutes gets 429 saying when to
// try again, whoever it is about, and other readers are not affected.
// (Redis away → 503: services/kit/test/integration/limits.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { CONTACT_READ_LIMIT } from '../../src/routes/farmers.js';

let reader: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  [reader, other] = await Promise.all([signedInAccount({ role: 'buyer' }), signedInAccount({ role: 'buyer' })]);
});
afterAll(async () => {
  await Promise.all([reader, other].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const lookUp = (account: TestAccount) => api('GET', `/api/profile/farmers/${randomUUID()}/contact`, { token: account.accessToken });

describe('contact look-ups per user', () => {
  it(`answer 429 after ${CONTACT_READ_LIMIT.max} in ${CONTACT_READ_LIMIT.windowSeconds / 60} minutes`, async () => {
    expect(CONTACT_READ_LIMIT).toEqual({ max: 30, windowSeconds: 600 });
    for (let i = 0; i < CONTACT_READ_LIMIT.max; i++) expect((await lookUp(reader)).status).toBe(404);
    const limited = await lookUp(reader);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many contact look-ups\. Please wait \d+ seconds and try again\.$/);
    expect((await lookUp(other)).status).toBe(404);
  });
});
