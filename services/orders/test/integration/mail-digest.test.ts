// A farmer's inbox is theirs (issue 24, docs/adr/0060): new-request mails to one farmer are bounded. The
// first 3 of a 10-minute window go one by one; the rest of the window wait, in MongoDB, for one digest at
// its end that says how many and for which products. Against the running stack: the verdicts on the real
// Redis from two clients at once (two replicas), then 10 requests through the gateway and Mailpit.
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis, connectRedis, type RedisClient } from '@tuber/kit';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { eventually } from '../../../../test/support/api.js';
import { mongoUrl, redisUrl } from '../../../../test/support/credentials.js';
import { mailCount, waitForMail } from '../../../../test/support/mail.js';
import { judgeNewRequestMail, windowKey } from '../../src/mail/new-request-window.js';
import { buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

const BOUND = { perWindow: 3, windowMs: 600_000 };

let replicaA: RedisClient;
let replicaB: RedisClient;
let orders: mongoose.Connection;
let farmer: TestAccount;
let buyers: TestAccount[];
let yam: Posted;
let cassava: Posted;

beforeAll(async () => {
  [replicaA, replicaB] = await Promise.all([connectRedis(redisUrl()), connectRedis(redisUrl())]);
  orders = await mongoose.createConnection(mongoUrl('orders')).asPromise();
  farmer = await farmerWithProfile({ businessName: 'Digest Farm', tuber: ['yam', 'cassava'] });
  buyers = await Promise.all([buyerWithProfile(), buyerWithProfile()]);
  [yam, cassava] = await Promise.all([
    newProduct(farmer, { price: 2000, quantity: 100, product_name: `Digest yam ${randomUUID().slice(0, 4)}` }),
    newProduct(farmer, { price: 1500, quantity: 100, product_name: `Digest cassava ${randomUUID().slice(0, 4)}`, tuber_type: 'cassava' }),
  ]);
});

afterAll(async () => {
  await Promise.all([replicaA && closeRedis(replicaA), replicaB && closeRedis(replicaB), orders?.close()]);
  await Promise.all([farmer, ...(buyers ?? [])].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('the per-farmer bound, decided in Redis', () => {
  it('gives exactly 3 single mails of 20 requests judged at once by two replicas, and the same verdict on a redelivery', async () => {
    const farmerId = `test-farmer-${randomUUID()}`;
    const requests = Array.from({ length: 20 }, () => randomUUID());
    const judge = (id: string, i: number) => judgeNewRequestMail(i % 2 ? replicaA : replicaB, BOUND, farmerId, id);
    const verdicts = await Promise.all(requests.map(judge));
    expect(verdicts.filter((v) => v.kind === 'single')).toHaveLength(3);
    const due = new Set(verdicts.flatMap((v) => (v.kind === 'digest' ? [v.dueAt.getTime()] : [])));
    expect(due.size).toBe(1);
    // The window ends 10 minutes after it opened: its key expires then, and the digest is due then.
    const ttl = await replicaA.pTTL(windowKey(farmerId));
    expect(ttl).toBeGreaterThan(590_000);
    expect(Math.abs([...due][0]! - (Date.now() + ttl))).toBeLessThan(2_000);
    // The same events delivered again (to the other replica): the same verdicts, the count unchanged.
    const again = await Promise.all(requests.map((id, i) => judge(id, i + 1)));
    expect(again).toEqual(verdicts);
    expect(await replicaA.hGet(windowKey(farmerId), 'count')).toBe('20');
    await replicaA.del(windowKey(farmerId));
  });
});

describe('new-request mails to one farmer', () => {
  it('sends 10 requests in quick succession as 3 single mails and 1 digest naming the other 7 and their products', async () => {
    // The farmer's window as it stands 9 min 20 s after it opened, with no request in it yet, so that its end
    // (and the digest) comes in 40 s rather than 10 minutes. Everything else is the service's own doing.
    const ends = Date.now() + 40_000;
    await replicaA.hSet(windowKey(farmer.id), { count: '0', ends: String(ends) });
    await replicaA.pExpireAt(windowKey(farmer.id), ends);

    const numbers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const product = i % 3 === 2 ? cassava : yam;
      const body = requestBody(farmer, [{ product, quantity: 1 + i }]);
      const answer = await sendWhenKnown(buyers[i % 2]!, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      numbers.push(answer.body.number as string);
    }

    // Three single mails, in the order they were judged (not necessarily sent).
    const singles = await eventually(
      () => mailCount(farmer.email),
      (count) => count >= 3,
      20_000,
    );
    expect(singles).toBe(3);
    // The other seven wait in MongoDB (a replica that dies loses none), due at the window's end.
    const held = await eventually(
      () => orders.collection('mail_digest_entries').find({ farmer_id: farmer.id }).toArray(),
      (docs) => docs.length >= 7,
      20_000,
    );
    expect(held).toHaveLength(7);
    for (const doc of held) expect(new Date(doc.due_at).getTime()).toBe(ends);
    expect(await mailCount(farmer.email)).toBe(3);

    const digest = await waitForMail(farmer.email, /^7 more new order requests in your inbox$/, 90_000);
    console.log(`digest in Mailpit ${Date.now() - ends} ms after the window ended`);
    const heldNumbers = held.map((doc) => doc.number as string);
    const singleNumbers = numbers.filter((n) => !heldNumbers.includes(n));
    expect(singleNumbers).toHaveLength(3);
    expect(digest.text).toContain('You received 7 more order requests in 10 minutes.');
    const yams = held.filter((doc) => doc.product_names.includes(yam.product_name)).length;
    const cassavas = held.filter((doc) => doc.product_names.includes(cassava.product_name)).length;
    expect(yams + cassavas).toBe(7);
    if (yams) expect(digest.text).toContain(`${yam.product_name}: ${yams} request${yams === 1 ? '' : 's'}`);
    if (cassavas) expect(digest.text).toContain(`${cassava.product_name}: ${cassavas} request${cassavas === 1 ? '' : 's'}`);
    for (const number of heldNumbers) expect(digest.text).toMatch(new RegExp(`${number} from Test Buyer: `));
    for (const number of singleNumbers) expect(digest.text).not.toContain(`${number} from`);
    expect(digest.text).toContain('/dashboard/inbox');

    // Marked mailed; no second digest, no more mails.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(await mailCount(farmer.email)).toBe(4);
    const unmailed = await orders.collection('mail_digest_entries').countDocuments({ farmer_id: farmer.id, mailed_at: { $exists: false } });
    expect(unmailed).toBe(0);
  }, 180_000);
});
