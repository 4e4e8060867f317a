// Order e-mails in the recipient's language (issue 13, docs/adr/0044-server-languages.md), end to end on
// the running stack: an account's Keycloak locale attribute → the auth service's relay publishes it with
// AccountEmailChanged → the orders service keeps it → the farmer's new-request mail arrives in Mailpit in
// Yoruba; a buyer whose token says Hausa gets the acceptance in Hausa; a buyer with no language, in English.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { eventually } from '../../../../test/support/api.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { signInWithPassword } from '../../../../test/support/keycloak.js';
import { waitForMail } from '../../../../test/support/mail.js';
import { act, buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

let farmer: TestAccount;
let englishBuyer: TestAccount;
let hausaBuyer: TestAccount;
let product: Posted;
let orders: mongoose.Connection;

async function setLocale(id: string, locale: string) {
  const kc = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
  await kc.auth({ grantType: 'client_credentials', clientId: 'tuber-auth', clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '' });
  const user = await kc.users.findOne({ id });
  await kc.users.update({ id }, { ...user, attributes: { ...(user?.attributes ?? {}), locale: [locale] } });
}

beforeAll(async () => {
  [farmer, englishBuyer, hausaBuyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Oko Adé', tuber: ['yam'] }),
    buyerWithProfile(),
    buyerWithProfile(),
  ]);
  product = await newProduct(farmer, { price: 2000, quantity: 50 });
  orders = await mongoose.createConnection(mongoUrl('orders')).asPromise();
  await setLocale(farmer.id, 'yo');
  await setLocale(hausaBuyer.id, 'ha');
  // The Hausa buyer signs in again: the new token carries locale=ha.
  hausaBuyer = { ...hausaBuyer, accessToken: (await signInWithPassword(hausaBuyer.email, hausaBuyer.password)).accessToken };
});

afterAll(async () => {
  await orders?.close();
  await Promise.all([farmer, englishBuyer, hausaBuyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

async function sendFrom(buyer: TestAccount, quantity: number) {
  const body = requestBody(farmer, [{ product, quantity }]);
  const answer = await sendWhenKnown(buyer, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { id: body.request_id, number: answer.body.number as string };
}

describe('order e-mails in the recipient language', () => {
  it("mails the Yoruba farmer in Yoruba (the account's locale, relayed from Keycloak) and the English buyer in English", async () => {
    // The relay reads Keycloak's admin events every few seconds; the orders service keeps what it publishes.
    const known = await eventually(
      () => orders.collection('account_locales').findOne({ _id: farmer.id as never }),
      (doc) => doc?.locale === 'yo',
      30_000,
    );
    expect(known?.locale).toBe('yo');

    const { id, number } = await sendFrom(englishBuyer, 3);
    const toFarmer = await waitForMail(farmer.email, new RegExp(`Ìbéèrè ọjà tuntun ${number}`));
    expect(toFarmer.subject).toBe(`Ìbéèrè ọjà tuntun ${number} láti ọ̀dọ̀ Test Buyer`);
    expect(toFarmer.text).toContain(`${product.product_name}: 3 kg ní ₦2,000.00 fún kg kan = ₦6,000.00`);
    expect(toFarmer.text).toContain('Àpapọ̀: ₦6,000.00');
    expect(toFarmer.text).toContain('Ṣí àpótí ìbéèrè rẹ láti gbà á tàbí kọ̀ ọ́:');

    expect((await act(farmer, id, 'accept')).status).toBe(200);
    const toBuyer = await waitForMail(englishBuyer.email, new RegExp(`Your order request ${number} was accepted`));
    expect(toBuyer.text).toContain(`Oko Adé accepted your order request ${number}.`);
    expect(toBuyer.text).toContain('Total: ₦6,000.00');
  });

  it('mails a buyer whose token says Hausa in Hausa', async () => {
    const { id, number } = await sendFrom(hausaBuyer, 2);
    await waitForMail(farmer.email, new RegExp(`Ìbéèrè ọjà tuntun ${number}`));
    expect((await act(farmer, id, 'accept')).status).toBe(200);
    const mail = await waitForMail(hausaBuyer.email, new RegExp(`An karɓi buƙatar odarka ${number}`));
    expect(mail.text).toContain(`Oko Adé ya karɓi buƙatar odarka ${number}.`);
    expect(mail.text).toContain('Jimilla: ₦4,000.00');
    expect(mail.html).toContain('lang="ha"');
  });
});
