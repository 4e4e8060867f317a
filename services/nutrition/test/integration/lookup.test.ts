import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { NutritionConfig } from '../../src/config.js';
import { redisUrl } from '../../../../test/support/credentials.js';

let app: ServiceApp;

beforeAll(async () => {
  app = await buildApp(loadConfig(NutritionConfig, { ...process.env, LOG_LEVEL: 'silent', REDIS_URL: redisUrl('nutrition') }));
});
afterAll(async () => app?.close());

describe('GET /api/nutrition/:tuberType', () => {
  it('answers yam from the embedded USDA data, then from the Redis cache', async () => {
    await app.inject({ method: 'GET', url: '/api/nutrition/yam' }); // warm, whatever was cached before
    const response = await app.inject({ method: 'GET', url: '/api/nutrition/yam' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-cache']).toBe('hit');
    const body = response.json();
    expect(body.nutrition).toMatchObject({ calories: 118, potassium: 816, serving_weight_grams: 100 });
    expect(body.source.name).toContain('USDA FoodData Central');
  });

  it('answers an unknown type with 404 and the list of known types', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nutrition/banana' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(response.json().message).toContain('yam, cassava, potato, sweet potato, tumeric, garlic, ginger');
  });

  it('is ready with Redis up', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json().checks.redis.ok).toBe(true);
  });
});
