// Verifying a phone number by SMS (issue 26, docs/adr/0070), through the gateway against the running profile
// service and the local SMS catcher (which speaks Termii's API): the code arrives by SMS, a wrong one costs a
// try, five wrong ones spend it, ten minutes end it, one a minute and five a day per account and per number,
// a provider outage costs nothing, a changed number loses the badge, and the farm page shows it.
import mongoose from 'mongoose';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_CODE_TRIES, PHONE_CODES_PER_DAY } from '@tuber/contracts';
import { api } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { codeFrom, failNextSms, waitForSms } from '../../../../test/support/sms.js';

let buyer: TestAccount;
let farmer: TestAccount;
let reader: TestAccount;
/** Its own account for the day's count: the other cases' codes count on theirs. */
let counter: TestAccount;
let profiles: mongoose.Connection;

/** A number of our own for each account, so no other test's codes count towards its day. */
const freshNumber = () => `0809${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const e164 = (national: string) => `234${national.slice(1)}`;

const sendCode = (account: TestAccount) => api('POST', '/api/profile/me/phone/code', { token: account.accessToken });
const verify = (account: TestAccount, code: string) => api('POST', '/api/profile/me/phone/verify', { token: account.accessToken, json: { code } });
const setPhone = (account: TestAccount, phone: string) => api('PATCH', '/api/profile/me', { token: account.accessToken, json: { phone } });
/** Moves the last code's sending time back, as if the minute between codes had passed. */
const skipTheMinute = (account: TestAccount, collection: 'buyer' | 'farmer') =>
  profiles.collection(collection).updateOne({ user_id: account.id }, { $set: { 'phone_check.sent_at': new Date(Date.now() - 61_000) } });
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  profiles = await mongoose.createConnection(mongoUrl('profile')).asPromise();
  [buyer, farmer, reader, counter] = await Promise.all([
    signedInAccount({ role: 'buyer' }),
    signedInAccount({ role: 'farmer', tuber: ['yam'] }),
    signedInAccount({ role: 'buyer' }),
    signedInAccount({ role: 'buyer' }),
  ]);
  for (const account of [buyer, farmer, reader, counter]) expect((await api('POST', '/api/profile/me', { token: account.accessToken })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await profiles?.close();
  await Promise.all([buyer, farmer, reader, counter].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('verifying a phone number by SMS', () => {
  it('sends a code to the profile’s number, takes it back once, and shows the number verified', async () => {
    const phone = freshNumber();
    expect((await setPhone(buyer, phone)).body).toMatchObject({ phone: e164(phone), phone_verified: false });
    const since = new Date();
    const sent = await sendCode(buyer);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body).toMatchObject({ phone: e164(phone), tries: PHONE_CODE_TRIES });
    const expiresIn = Date.parse(sent.body.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
    const sms = await waitForSms(e164(phone), /Tuber Market code: \d{6}\. It expires in 10 minutes/, { since });
    expect(sms).toMatchObject({ from: 'TuberMkt', channel: 'dnd', type: 'plain' });
    const code = codeFrom(sms);

    // Only the hash is kept.
    const stored = await profiles.collection('buyer').findOne({ user_id: buyer.id });
    expect(stored?.phone_check?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(code);

    // One code a minute.
    const again = await sendCode(buyer);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ code: 'PHONE_CODE_WAIT', params: { seconds: expect.any(Number) } });

    const wrong = await verify(buyer, otherCode(code));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'PHONE_CODE_WRONG', params: { left: PHONE_CODE_TRIES - 1 } });
    expect((await verify(buyer, '12345')).status).toBe(400); // not six digits: refused by the schema, costs nothing
    const right = await verify(buyer, code);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body).toMatchObject({ user_id: buyer.id, phone: e164(phone), phone_verified: true });
    expect(right.body).not.toHaveProperty('phone_check');
    expect(right.body).not.toHaveProperty('verified_phone');
    expect((await api('GET', '/api/profile/me', { token: buyer.accessToken })).body.phone_verified).toBe(true);
    expect((await verify(buyer, code)).body.code).toBe('PHONE_ALREADY_VERIFIED');
    expect((await sendCode(buyer)).body.code).toBe('PHONE_ALREADY_VERIFIED');

    // A new number is not verified, and the code of the old one is gone.
    expect((await setPhone(buyer, freshNumber())).body.phone_verified).toBe(false);
    expect((await verify(buyer, code)).body.code).toBe('PHONE_CODE_NONE');
  });

  it(`spends a code after ${PHONE_CODE_TRIES} wrong tries, and ends it after 10 minutes`, async () => {
    const phone = freshNumber();
    await setPhone(reader, phone);
    const since = new Date();
    expect((await sendCode(reader)).status).toBe(202);
    const code = codeFrom(await waitForSms(e164(phone), /\d{6}/, { since }));
    for (let left = PHONE_CODE_TRIES - 1; left >= 1; left--) {
      expect((await verify(reader, otherCode(code))).body).toMatchObject({ code: 'PHONE_CODE_WRONG', params: { left } });
    }
    const last = await verify(reader, otherCode(code));
    expect(last.status).toBe(429);
    expect(last.body.code).toBe('PHONE_CODE_TRIES');
    // Spent: even the right code is refused now.
    expect((await verify(reader, code)).body.code).toBe('PHONE_CODE_TRIES');

    await skipTheMinute(reader, 'buyer');
    const since2 = new Date();
    expect((await sendCode(reader)).status).toBe(202);
    const fresh = codeFrom(await waitForSms(e164(phone), /\d{6}/, { since: since2 }));
    await profiles.collection('buyer').updateOne({ user_id: reader.id }, { $set: { 'phone_check.expires_at': new Date(Date.now() - 1000) } });
    const late = await verify(reader, fresh);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'PHONE_CODE_NONE', params: { minutes: 10 } });
  });

  it(`sends at most ${PHONE_CODES_PER_DAY} codes a day to one number, and an outage costs nothing`, async () => {
    const phone = freshNumber();
    await setPhone(counter, phone);
    // The provider is away: 503, and the next try may go at once (no minute's wait for a code never sent).
    await failNextSms(1);
    const away = await sendCode(counter);
    expect(away.status).toBe(503);
    expect(away.body.code).toBe('SMS_UNAVAILABLE');
    for (let i = 0; i < PHONE_CODES_PER_DAY; i++) {
      const sent = await sendCode(counter);
      expect(sent.status, `code ${i + 1}: ${JSON.stringify(sent.body)}`).toBe(202);
      await skipTheMinute(counter, 'buyer');
    }
    const over = await sendCode(counter);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'PHONE_CODES_TODAY', params: { max: PHONE_CODES_PER_DAY } });
    // The number's day is counted whoever asks: another account with the same number meets it too.
    await setPhone(buyer, phone);
    expect((await sendCode(buyer)).body.code).toBe('PHONE_CODES_TODAY');
  });

  it('shows a farmer’s verified number on the farm page, and not once the number changes', async () => {
    const phone = freshNumber();
    await setPhone(farmer, phone);
    const farmPage = async () => (await api('GET', `/api/profile/farmers/${farmer.id}`, { token: reader.accessToken })).body;
    expect((await farmPage()).phone_verified).toBe(false);
    const since = new Date();
    expect((await sendCode(farmer)).status).toBe(202);
    const verified = await verify(farmer, codeFrom(await waitForSms(e164(phone), /\d{6}/, { since })));
    expect(verified.body).toMatchObject({ phone_verified: true, sms_alerts: false });
    expect((await farmPage()).phone_verified).toBe(true);
    const card = await api('GET', `/api/profile/farmers/${farmer.id}/contact`, { token: reader.accessToken });
    expect(card.body).toMatchObject({ phone: e164(phone), phone_verified: true });
    await setPhone(farmer, freshNumber());
    expect((await farmPage()).phone_verified).toBe(false);
  });

  it('refuses SMS alerts to an unverified number, and buyers have none', async () => {
    const refused = await api('PATCH', '/api/profile/me', { token: farmer.accessToken, json: { sms_alerts: true } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('SMS_ALERTS_NEED_VERIFIED_PHONE');
    const buyerAlerts = await api('PATCH', '/api/profile/me', { token: buyer.accessToken, json: { sms_alerts: true } });
    expect(buyerAlerts.status).toBe(400);
    expect(buyerAlerts.body.code).toBe('BUYER_FARM_FIELDS');
  });

  it('needs a sign-in and a profile', async () => {
    expect((await api('POST', '/api/profile/me/phone/code', {})).status).toBe(401);
    expect((await api('POST', '/api/profile/me/phone/verify', { json: { code: '123456' } })).status).toBe(401);
  });
});
