// Consumer-driven contract (Pact) of the landing remote with the catalog (issue 27): the public price guide, asked
// for without a token (guests' pages). The landing page's "Prices this week" links (every tuber's city figure) and
// the price page (a tuber's last 52 weeks, for the city or a place), each path from the page's own code, answered
// with the parts the pages read. Mock server only; contracts/pacts/landing-catalog.json must agree (make pacts);
// test/system/pact-providers.test.ts verifies the running catalog against it.
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import type { PriceHistory } from '@tuber/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { fetchPricesNow, hasFigures, historyApiPath, thisWeek } from '../../src/prices/priceView.js';

const { like, eachLike, arrayContaining, string, integer, regex, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'landing', provider: 'catalog', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'landing-catalog.json')).toBeNull());

/** A guest: no token, so no authorization header. */
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api` });
const headers = { accept: 'application/json, application/problem+json' };
const json = regex('application/json.*', 'application/json; charset=utf-8');

/**
 * Naira per kg. Bands are null when a week has too few sales; the state gives yam real figures this week, so here
 * they are bands (null's part of the shape is the OpenAPI check's, as is `seasonal`, a hint or null).
 */
const band = (count: number, p25: number, p50: number, p75: number) =>
  like({ count: integer(count), p25: integer(p25), p50: integer(p50), p75: integer(p75) });
const isoWeek = regex('^\\d{4}-W\\d{2}$', '2026-W48');
/** This week's figures in a history: the page's headline figures, the chart's and the table's last week. */
const yamThisWeek = {
  week: isoWeek,
  starts: regex('^\\d{4}-\\d{2}-\\d{2}$', '2026-11-23'),
  sold: band(6, 1050, 1200, 1350),
  asked: band(5, 1000, 1200, 1400),
};

describe('pact: landing → catalog', () => {
  it("every tuber's figures this week for the landing page's price links", async () => {
    pact
      .given('yam has figures this week')
      .uponReceiving("every tuber's price figures this week, city-wide, for a guest")
      .withRequest({ method: 'GET', path: '/api/catalog/prices/now', headers })
      // One item per tuber; the state's tuber has figures, the others may have none yet (null bands).
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: {
          items: arrayContaining({
            tuber: 'yam',
            period: regex('this_week|last_week', 'this_week'),
            sold: band(6, 1050, 1200, 1350),
            asked: band(5, 1000, 1200, 1400),
          }),
        },
      });
    await pact.executeTest(async (server) => {
      // PriceLinks' own fetch.
      const all = { items: [...(await fetchPricesNow(api(server.url))).values()] };
      const yam = all.items.find((item) => item.tuber.replace(/ /g, '-') === 'yam');
      expect(yam?.sold ?? yam?.asked).toMatchObject({ p25: 1050, p75: 1350 });
    });
  });

  it("yam's price page for the whole city: 52 weeks, this week's figures last", async () => {
    pact
      .given('yam has figures this week')
      .uponReceiving("yam's weekly price figures, city-wide, for a guest")
      .withRequest({ method: 'GET', path: `/api${historyApiPath('yam', '')}`, headers })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: {
          tuber: 'yam',
          scope: 'city',
          weeks: arrayContaining(yamThisWeek),
          // The place picker's choices: the state's place has figures of its own.
          locations: eachLike(string('Ibadan')),
        },
      });
    await pact.executeTest(async (server) => {
      const history = await api(server.url).get<PriceHistory>(historyApiPath('yam', ''));
      expect(hasFigures(history.weeks)).toBe(true);
      expect(thisWeek(history)?.sold).toMatchObject({ p25: 1050, p50: 1200, p75: 1350 });
      expect(history.locations).toContain('Ibadan');
    });
  });

  it("yam's price page for a place with figures of its own (the place picker)", async () => {
    const [pathOnly, query] = historyApiPath('yam', 'Ibadan').split('?') as [string, string];
    pact
      .given('yam has figures this week')
      .uponReceiving("yam's weekly price figures at a place with figures of its own, for a guest")
      .withRequest({
        method: 'GET',
        path: `/api${pathOnly}`,
        query: { location: fromProviderState('${location}', new URLSearchParams(query).get('location')!) },
        headers,
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: {
          tuber: 'yam',
          // The page says when the city's figures came back instead (scope city): here the place's own.
          scope: 'location',
          location: string('Ibadan'),
          weeks: arrayContaining(yamThisWeek),
          locations: eachLike(string('Ibadan')),
        },
      });
    await pact.executeTest(async (server) => {
      const history = await api(server.url).get<PriceHistory>(historyApiPath('yam', 'Ibadan'));
      expect(history.scope).toBe('location');
      expect(thisWeek(history)?.asked).toMatchObject({ count: 5 });
    });
  });
});
