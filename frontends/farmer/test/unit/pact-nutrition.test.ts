// Pact of the farmer remote with the nutrition service: the lookup the Add Product form makes when a tuber type
// is chosen (useNutritionLookup), answered with the values and the source its nutrition panel shows.
// Runs on Pact's mock server; contracts/pacts/farmer-nutrition.json must match it (make pacts).
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import type { NutritionLookup } from '@tuber/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { NUTRITION_ROWS, nutritionValue } from '../../src/add-product/nutrition.js';

const { number, string, regex } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'farmer', provider: 'nutrition', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'farmer-nutrition.json')).toBeNull());

/** Yam per 100 g, as the embedded data has it. */
const yam = {
  serving_weight_grams: 100,
  serving_qty: 1,
  calories: 118,
  dietary_fiber: 4.1,
  protein: 1.53,
  saturated_fat: 0.037,
  sugars: 0.5,
  potassium: 816,
  sodium: 9,
  total_fat: 0.17,
};

const farmerToken = 'a-farmer-access-token';
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => farmerToken });

describe('pact: farmer → nutrition', () => {
  it('the nutrition values of a tuber type, with their source', async () => {
    pact
      .uponReceiving('the nutrition values of yam')
      .withRequest({
        method: 'GET',
        path: '/api/nutrition/yam',
        headers: { authorization: regex('Bearer .+', `Bearer ${farmerToken}`), accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') },
        body: {
          // Every value a row of the nutrition panel shows; the product form sends them back with the product.
          nutrition: Object.fromEntries(NUTRITION_ROWS.map(({ key }) => [key, number(yam[key])])),
          source: { name: string('USDA FoodData Central (SR Legacy)'), reference: string('Yam, raw, NDB 11601, per 100 g') },
        },
      });
    await pact.executeTest(async (server) => {
      // The path useNutritionLookup asks for when yam is chosen.
      const found = await api(server.url).get<NutritionLookup>(`/nutrition/${encodeURIComponent('yam')}`);
      expect(nutritionValue(found.nutrition.calories, 'kcal')).toBe('118.00 kcal');
      expect(found.source.name).toBe('USDA FoodData Central (SR Legacy)');
    });
  });
});
