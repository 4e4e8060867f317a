// The third-party provider is the one true external edge: a local stand-in answers like it does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { connectRedis, loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { NutritionConfig } from '../../src/config.js';
import { FALLBACK_TTL_SECONDS } from '../../src/routes/lookup.js';
import { redisUrl } from '../../../../test/support/credentials.js';

let provider: Server;
let app: ServiceApp;
const seen: { headers: IncomingMessage['headers']; body: unknown }[] = [];
let failNext = false;

beforeAll(async () => {
  provider = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      seen.push({ headers: request.headers, body: JSON.parse(raw) });
      if (failNext) {
        failNext = false;
        response.statusCode = 500;
        return response.end('{}');
      }
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          foods: [
            {
              food_name: 'ginger root',
              serving_qty: 1,
              serving_weight_grams: 11,
              nf_calories: 8.8,
              nf_total_fat: 0.08,
              nf_saturated_fat: 0.02,
              nf_sodium: 1.43,
              nf_dietary_fiber: 0.22,
              nf_sugars: 0.19,
              nf_protein: 0.2,
              nf_potassium: 45.65,
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  // Clear this test's cache keys so the provider is really asked.
  const redis = await connectRedis(redisUrl('nutrition'));
  await redis.del('nutrition:v1:upstream:ginger', 'nutrition:v1:upstream:garlic');
  redis.disconnect();
  app = await buildApp(
    loadConfig(NutritionConfig, {
      ...process.env,
      LOG_LEVEL: 'silent',
      REDIS_URL: redisUrl('nutrition'),
      NUTRITION_UPSTREAM_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v2/natural/nutrients`,
      NUTRITION_UPSTREAM_APP_ID: 'test-app',
      NUTRITION_UPSTREAM_APP_KEY: `key-${randomUUID()}`,
    }),
  );
});
afterAll(async () => {
  await app?.close();
  provider?.close();
});

describe('nutrition provider', () => {
  it('asks the provider on the server with its keys and answers with its first food', async () => {
    const answer = await app.inject('/api/nutrition/ginger');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().nutrition).toEqual({
      serving_weight_grams: 11,
      serving_qty: 1,
      calories: 8.8,
      dietary_fiber: 0.22,
      protein: 0.2,
      saturated_fat: 0.02,
      sugars: 0.19,
      potassium: 45.65,
      sodium: 1.43,
      total_fat: 0.08,
    });
    expect(seen.at(-1)?.body).toEqual({ query: 'ginger', use_raw_foods: true });
    expect(seen.at(-1)?.headers['x-app-id']).toBe('test-app');
    // cached: the provider is not asked again
    const before = seen.length;
    expect((await app.inject('/api/nutrition/ginger')).headers['x-cache']).toBe('hit');
    expect(seen.length).toBe(before);
  });

  it('falls back to the embedded USDA data when the provider fails, and keeps that answer only briefly', async () => {
    failNext = true;
    const answer = await app.inject('/api/nutrition/garlic');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().source.name).toContain('USDA');
    expect(answer.json().nutrition.calories).toBe(149);
    // The provider's own answer must come back soon, not after the day-long cache time.
    const redis = await connectRedis(redisUrl('nutrition'));
    const ttl = await redis.ttl('nutrition:v1:upstream:garlic');
    redis.disconnect();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(FALLBACK_TTL_SECONDS);
  });
});
