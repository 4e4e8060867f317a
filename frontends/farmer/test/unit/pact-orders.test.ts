// Pact of the farmer remote with the orders service: the inbox's first page, accepting a request, the unread
// count and the insights, asked for with the farmer's own inbox code through the shell's API client and
// answered with only what its pages read. contracts/pacts/farmer-orders.json must match it (make pacts).
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import type { BlockedBuyer, BlockedBuyers, Insights, OrderRequest, Review, UnreadCount } from '@tuber/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { acceptBody, actionPath, belongsTo, initialQuantities, lineQuantity, requestsPath, reviewAnswerPath } from '../../src/inbox/inbox.js';
import { hasActivity, PRODUCT_COLUMNS, totalCards } from '../../src/insights/insightsView.js';
import { blockedBuyerPath } from '../../src/inbox/useBlockedBuyers.js';

const { eachLike, string, number, integer, boolean, regex, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'farmer', provider: 'orders', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'farmer-orders.json')).toBeNull());

const requestId = '5c2e8f4a-1b3d-4e6f-8a9b-0c1d2e3f4a5b';
const buyerId = '3f0c9a7e-5d2b-4c1a-8e6f-7a9b0c1d2e3f';
const productId = '7d1f3c1e-7b51-4c7a-9e0e-2f1f1c0f4a11';
const isoMoment = (example: string) => regex('\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z', example);
const calendarDay = (example: string) => regex('\\d{4}-\\d{2}-\\d{2}', example);
const orderStatus = (example: string) => regex('sent|accepted|declined|fulfilled|cancelled', example);

/** One line of a request as the card, the accept form and the WhatsApp text read it. */
const line = {
  product_id: string(productId),
  product_name: string('Fresh white yam'),
  unit: regex('kg|tuber|heap|bag_50kg|lot_100', 'heap'),
  quantity: number(2),
  price: number(2000.5),
  line_total: number(4001),
};

/**
 * A request as the inbox (RequestCard, AcceptForm, whatsAppText, belongsTo) reads it. Left out: address and
 * note (sent only for some requests), each history entry's reason, and a line's accepted_quantity before it is
 * accepted; a pact cannot say "maybe absent".
 */
const request = (status: 'sent' | 'accepted', lineFields: Record<string, unknown> = {}) => ({
  request_id: string(requestId),
  number: string('TM-1042'),
  buyer_name: string('Bola Ade'),
  buyer_phone: regex('[0-9]+', '2348031234567'),
  business_name: string('Ade Farms'),
  lines: eachLike({ ...line, ...lineFields }),
  total: number(4001),
  fulfilment: regex('pickup|delivery', 'pickup'),
  preferred_date: calendarDay('2026-12-01'),
  status,
  history: eachLike({ status: orderStatus('sent'), at: isoMoment('2026-11-28T10:00:00.000Z'), by: regex('buyer|farmer', 'buyer') }),
  created_at: isoMoment('2026-11-28T10:00:00.000Z'),
  unread: boolean(true),
});

/** Each count the insights page shows (its table's columns cover them all). */
const counts = Object.fromEntries(PRODUCT_COLUMNS.map(({ key }) => [key, integer(1)]));

const farmerToken = 'a-farmer-access-token';
const authorization = regex('Bearer .+', `Bearer ${farmerToken}`);
const json = regex('application/json.*', 'application/json; charset=utf-8');
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => farmerToken });

describe('pact: farmer → orders', () => {
  it("the inbox's New tab: the first page of sent requests, newest first", async () => {
    const [pathOnly, query] = requestsPath('new', null).split('?') as [string, string];
    pact
      .given('a buyer sent the farmer a request')
      .uponReceiving("the first page of the farmer's new requests")
      .withRequest({
        method: 'GET',
        path: `/api${pathOnly}`,
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: { items: eachLike(request('sent')) } });
    // next_cursor is read too, but it is a string or null: a pact cannot say "either".
    await pact.executeTest(async (server) => {
      const page = await api(server.url).get<{ items: OrderRequest[] }>(requestsPath('new', null));
      const shown = page.items.filter((item) => belongsTo('new', item.status));
      expect(shown.map((item) => item.number)).toEqual(['TM-1042']);
    });
  });

  it('accepting a request as the buyer asked for it', async () => {
    // The accept form's own body, with the quantities left as prefilled and no message: nothing lowered.
    const asked = [
      { product_id: productId, product_name: 'Fresh white yam', unit: 'heap' as const, quantity: 2, price: 2000.5, line_total: 4001 },
    ];
    const check = acceptBody(asked, initialQuantities(asked), '');
    if (!check.ok) throw new Error('the accept form refused the quantities it prefilled');
    pact
      .given('a buyer sent the farmer a request')
      .uponReceiving('the farmer accepting a new request as asked')
      .withRequest({
        method: 'POST',
        path: fromProviderState('/api/orders/requests/${requestId}/accept', `/api${actionPath(requestId, 'accept')}`),
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: check.body,
      })
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: request('accepted', { accepted_quantity: number(2) }) });
    await pact.executeTest(async (server) => {
      const answer = await api(server.url).post<OrderRequest>(actionPath(requestId, 'accept'), check.body);
      expect(answer.status).toBe('accepted');
      expect(lineQuantity(answer.lines[0]!)).toBe(2);
    });
  });

  it('the count of requests the farmer has not opened since they changed', async () => {
    pact
      .given('a buyer sent the farmer a request')
      .uponReceiving("the farmer's unread count")
      .withRequest({ method: 'GET', path: '/api/orders/unread', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: { count: integer(1) } });
    await pact.executeTest(async (server) => {
      const unread = await api(server.url).get<UnreadCount>('/orders/unread');
      expect(unread.count).toBe(1);
    });
  });

  // Issue 24: "Block this buyer" on a request, the Blocked buyers list, and Unblock.
  const blockedBuyer = { buyer_id: string(buyerId), buyer_name: string('Bola Ade'), blocked_at: isoMoment('2026-11-28T10:00:00.000Z') };

  it('blocking the buyer of a request', async () => {
    pact
      .given('a buyer sent the farmer a request')
      .uponReceiving('the farmer blocking the buyer of a request')
      .withRequest({
        method: 'PUT',
        path: fromProviderState('/api/orders/blocked-buyers/${buyerId}', `/api${blockedBuyerPath(buyerId)}`),
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: {},
      })
      .willRespondWith({ status: 201, headers: { 'content-type': json }, body: blockedBuyer });
    await pact.executeTest(async (server) => {
      const answer = await api(server.url).put<BlockedBuyer>(blockedBuyerPath(buyerId), {});
      expect(answer.buyer_id).toBe(buyerId);
      expect(answer.buyer_name).toBe('Bola Ade');
    });
  });

  it("the farmer's blocked buyers", async () => {
    pact
      .given('the farmer blocked the buyer of a request')
      .uponReceiving("the farmer's blocked buyers")
      .withRequest({ method: 'GET', path: '/api/orders/blocked-buyers', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: { items: eachLike(blockedBuyer) } });
    await pact.executeTest(async (server) => {
      const list = await api(server.url).get<BlockedBuyers>('/orders/blocked-buyers');
      expect(list.items.map((b) => b.buyer_name)).toEqual(['Bola Ade']);
    });
  });

  it('unblocking a buyer', async () => {
    pact
      .given('the farmer blocked the buyer of a request')
      .uponReceiving('the farmer unblocking a buyer')
      .withRequest({
        method: 'DELETE',
        path: fromProviderState('/api/orders/blocked-buyers/${buyerId}', `/api${blockedBuyerPath(buyerId)}`),
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 204 });
    await pact.executeTest(async (server) => {
      await expect(api(server.url).delete(blockedBuyerPath(buyerId))).resolves.toBeUndefined();
    });
  });

  it("the farmer's insights over the last 7 days", async () => {
    pact
      .given('a buyer sent the farmer a request')
      .uponReceiving("the farmer's insights for 7 days")
      .withRequest({
        method: 'GET',
        path: '/api/orders/insights',
        query: { days: '7' },
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: {
          days: 7,
          totals: counts,
          products: eachLike({ product_id: string(productId), product_name: string('Fresh white yam'), counts }),
          daily: eachLike({ day: calendarDay('2026-11-28'), counts }),
        },
      });
    await pact.executeTest(async (server) => {
      // The path useInsights asks for (the window is the page's 7 or 30).
      const insights = await api(server.url).get<Insights>('/orders/insights?days=7');
      expect(hasActivity(insights.totals)).toBe(true);
      expect(totalCards(insights.totals).map((card) => card.value)).toEqual([1, 3, 1, 1, 1]);
      expect(insights.products[0]!.product_name).toBe('Fresh white yam');
    });
  });

  // Issue 26: the farmer's one public answer to the buyer's review of a fulfilled request.
  it("answering a request's review in public", async () => {
    pact
      .given('a buyer reviewed a fulfilled request')
      .uponReceiving("the farmer's answer to a review")
      .withRequest({
        method: 'PUT',
        path: fromProviderState('/api/orders/requests/${requestId}/review/answer', `/api${reviewAnswerPath(requestId)}`),
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: { text: 'Thank you, come again!' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: {
          request_id: fromProviderState('${requestId}', requestId),
          stars: integer(4),
          text: string('Good yams'),
          answer: { text: string('Thank you, come again!'), at: isoMoment('2026-11-29T08:05:00.000Z') },
        },
      });
    await pact.executeTest(async (server) => {
      const answered = await api(server.url).put<Review>(reviewAnswerPath(requestId), { text: 'Thank you, come again!' });
      expect(answered.answer?.text).toBe('Thank you, come again!');
    });
  });
});
