// New-request alerts by SMS (issue 26, docs/adr/0070), through the gateway against the running stack and the
// local SMS catcher: a farmer verifies the number with the code from the SMS, switches the alerts on, and a
// buyer's request brings an SMS besides the e-mail; switched off, or the number changed, the e-mail comes alone.
import { randomInt } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { waitForMail } from '../../../../test/support/mail.js';
import { codeFrom, listSms, waitForSms } from '../../../../test/support/sms.js';
import { buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

let farmer: TestAccount;
let buyer: TestAccount;
let product: Posted;
let orders: MongoClient;
const national = `0809${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const phone = `234${national.slice(1)}`;

const patch = (json: unknown) => api('PATCH', '/api/profile/me', { token: farmer.accessToken, json });
/** The orders service's copy of where the farmer's alerts go. */
const alertsTo = async () => (await orders.db().collection('contacts').findOne({ user_id: farmer.id }))?.sms_to ?? null;

beforeAll(async () => {
  orders = await new MongoClient(mongoUrl('orders')).connect();
  [farmer, buyer] = await Promise.all([farmerWithProfile({ businessName: 'Alert Farm', tuber: ['yam'] }), buyerWithProfile()]);
  product = await newProduct(farmer, { price: 1200, quantity: 50 });
}, 120_000);
afterAll(async () => {
  await orders?.close();
  await Promise.all([farmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('new-request alerts by SMS', () => {
  it('go to the verified number while switched on, and stop when switched off or the number changes', async () => {
    expect((await patch({ phone: national })).status).toBe(200);
    const since = new Date();
    expect((await api('POST', '/api/profile/me/phone/code', { token: farmer.accessToken })).status).toBe(202);
    const code = codeFrom(await waitForSms(phone, /\d{6}/, { since }));
    expect((await api('POST', '/api/profile/me/phone/verify', { token: farmer.accessToken, json: { code } })).body.phone_verified).toBe(true);
    const on = await patch({ sms_alerts: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ sms_alerts: true, phone_verified: true });
    await eventually(alertsTo, (to) => to === phone, 15_000);

    const first = requestBody(farmer, [{ product, quantity: 2 }]);
    const sentAt = new Date();
    const sent = await sendWhenKnown(buyer, first);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const alert = await waitForSms(phone, /new order request/, { since: sentAt });
    expect(alert.sms).toContain(sent.body.number);
    expect(alert.sms).toContain('Test Buyer');
    expect(alert.sms).toMatch(/\/dashboard\/inbox$/);
    // Once: the redelivery-safe record says sent.
    const record = await orders.db().collection('mails').findOne({ _id: `sms:${first.request_id}:${farmer.id}` as never });
    expect(record).toMatchObject({ state: 'sent', to: phone });

    // Switched off: the e-mail comes, the SMS does not.
    expect((await patch({ sms_alerts: false })).body.sms_alerts).toBe(false);
    await eventually(alertsTo, (to) => to === null, 15_000);
    const quietFrom = new Date();
    const second = await sendWhenKnown(buyer, requestBody(farmer, [{ product, quantity: 1 }]));
    expect(second.status).toBe(201);
    await waitForMail(farmer.email, new RegExp(`New order request ${second.body.number} from`));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await listSms(phone, quietFrom)).toEqual([]);

    // On again, then a new number: it is not verified, so the alerts stop until it is.
    expect((await patch({ sms_alerts: true })).status).toBe(200);
    await eventually(alertsTo, (to) => to === phone, 15_000);
    const moved = await patch({ phone: `0809${String(randomInt(0, 10_000_000)).padStart(7, '0')}` });
    expect(moved.body).toMatchObject({ phone_verified: false, sms_alerts: true });
    await eventually(alertsTo, (to) => to === null, 15_000);
  });
});
