// Notification e-mails in Mailpit (issue 12): the farmer on a new request, the buyer on accept,
// decline and fulfil, the other party on a cancel — each exactly once, even when the event that
// triggers it is delivered again (published a second time under another message id, which
// JetStream's de-duplication does not hide).
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderAccepted, OrderSent, type EventPayload } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { natsUrl } from '../../../../test/support/credentials.js';
import { mailCount, waitForMail } from '../../../../test/support/mail.js';
import { act, buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

let farmer: TestAccount;
let buyer: TestAccount;
let product: Posted;
let bus: EventBus;

beforeAll(async () => {
  [farmer, buyer] = await Promise.all([farmerWithProfile({ businessName: 'Mail Farm', tuber: ['yam'] }), buyerWithProfile()]);
  product = await newProduct(farmer, { price: 2000, quantity: 50 });
  bus = await EventBus.connect(natsUrl(), 'orders-mail-test', pino({ level: 'silent' }));
});

afterAll(async () => {
  await bus?.close();
  await Promise.all([farmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sendOne(quantity: number) {
  const body = requestBody(farmer, [{ product, quantity }]);
  const answer = await sendWhenKnown(buyer, body);
  const started = Date.now();
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { id: body.request_id, number: answer.body.number as string, started, request: answer.body };
}

describe('notification e-mails', () => {
  it('mails the farmer a new request once, naming the number, the lines, the total and the inbox', async () => {
    const { id, number, started, request } = await sendOne(3);
    const mail = await waitForMail(farmer.email, new RegExp(`New order request ${number} from Test Buyer`));
    console.log(`request sent (201) → farmer e-mail in Mailpit: ${Date.now() - started} ms`);
    expect(mail.text).toContain(`${product.product_name}: 3 kg at ₦2,000.00 per kg = ₦6,000.00`);
    expect(mail.text).toContain('Total: ₦6,000.00');
    expect(mail.text).toContain('/dashboard/inbox');

    // The same OrderSent delivered again (another message id): no second mail.
    const again: EventPayload<typeof OrderSent> = {
      request_id: id,
      number,
      buyer_id: buyer.id,
      farmer_id: farmer.id,
      lines: [{ product_id: product.product_id, unit: 'kg', quantity: 3, price_kobo: 200_000 }],
      revision: 1,
      at: request.created_at,
    };
    await bus.publish(OrderSent, again, `test-redelivery:${randomUUID()}`);
    await pause(3_000);
    const toFarmer = await mailCount(farmer.email);
    expect(toFarmer).toBe(1);
  });

  it('mails the buyer on accept and on fulfil, once each, even when OrderAccepted comes twice', async () => {
    const { id, number } = await sendOne(2);
    await waitForMail(farmer.email, new RegExp(`New order request ${number}`));
    const started = Date.now();
    const accepted = await act(farmer, id, 'accept');
    expect(accepted.status).toBe(200);
    const mail = await waitForMail(buyer.email, new RegExp(`Your order request ${number} was accepted`));
    console.log(`accept requested → buyer e-mail in Mailpit: ${Date.now() - started} ms`);
    expect(mail.text).toContain('Mail Farm accepted your order request');
    expect(mail.text).toContain('/dashboard/requests');
    await bus.publish(
      OrderAccepted,
      {
        request_id: id,
        number,
        buyer_id: buyer.id,
        farmer_id: farmer.id,
        lines: [{ product_id: product.product_id, unit: 'kg', quantity: 2, price_kobo: 200_000 }],
        revision: 2,
        at: accepted.body.updated_at,
      },
      `test-redelivery:${randomUUID()}`,
    );
    expect((await act(farmer, id, 'fulfil')).status).toBe(200);
    await waitForMail(buyer.email, new RegExp(`Your order request ${number} was fulfilled`));
    await pause(3_000);
    expect(await mailCount(buyer.email)).toBe(2);
  });

  it('mails the buyer a decline with the reason, and the farmer a cancel by the buyer', async () => {
    const declined = await sendOne(1);
    expect((await act(farmer, declined.id, 'decline', { reason: 'All sold at the market today' })).status).toBe(200);
    const mail = await waitForMail(buyer.email, new RegExp(`Your order request ${declined.number} was declined`));
    expect(mail.text).toContain('Reason: "All sold at the market today"');

    const cancelled = await sendOne(1);
    expect((await act(buyer, cancelled.id, 'cancel', { reason: 'Ordered by mistake' })).status).toBe(200);
    const toFarmer = await waitForMail(farmer.email, new RegExp(`Order request ${cancelled.number} was cancelled`));
    expect(toFarmer.text).toContain('Test Buyer cancelled order request');
    expect(toFarmer.text).toContain('Reason: "Ordered by mistake"');
    await pause(2_000);
    // Farmer: 4 new requests, of which the first 3 are mailed one by one and the 4th waits for the farmer's
    // digest at the end of the 10-minute window (issue 24, mail-digest.test.ts), + 1 cancel (never held).
    // Buyer: accepted, fulfilled, declined.
    expect(await mailCount(farmer.email)).toBe(4);
    expect(await mailCount(buyer.email)).toBe(3);
  });
});
