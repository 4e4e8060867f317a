import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { createServiceApp, identityFromClaims, loadConfig, BaseConfig, portConfig, notFound, type ServiceApp } from '../../src/index.js';

let app: ServiceApp;
let redisUp = true;

beforeAll(async () => {
  app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  app.readiness.add('redis', async () => {
    if (!redisUp) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  });
  app.post(
    '/api/demo/things',
    {
      schema: {
        body: Type.Object({ name: Type.String({ minLength: 1 }), price: Type.Number({ minimum: 0 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ ok: Type.Boolean() }), 400: Type.Ref('ErrorResponse') },
      },
    },
    async () => ({ ok: true }),
  );
  app.get('/api/demo/missing', async () => {
    throw notFound('PRODUCT_NOT_FOUND', 'That thing is gone.');
  });
  app.get('/api/demo/crash', async () => {
    throw new Error('database password is hunter2');
  });
});
afterAll(async () => app.close());

describe('service app factory', () => {
  it('answers /health while alive', async () => {
    const response = await app.inject('/health');
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('is ready only while every dependency answers, naming the one that does not', async () => {
    expect((await app.inject('/ready')).statusCode).toBe(200);
    redisUp = false;
    const down = await app.inject('/ready');
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toBe('Not ready: redis (connect ECONNREFUSED 127.0.0.1:6379) unavailable.');
    redisUp = true;
    expect((await app.inject('/ready')).statusCode).toBe(200);
  });

  it('explains a missing field in the one error shape', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/demo/things', payload: { price: 1 } });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type'], 'as before to a client that asks for JSON').toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      type: 'urn:tuber-market:problem:validation-failed',
      title: 'Bad Request',
      status: 400,
      detail: 'body: "name" is required.',
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'body.name', code: 'FIELD_REQUIRED', detail: 'body: "name" is required.' }],
      statusCode: 400,
      error: 'Bad Request',
      message: 'body: "name" is required.',
    });
  });

  it('rejects unknown fields by name', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/demo/things', payload: { name: 'yam', price: 1, farmer_id: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('body: unknown field "farmer_id".');
  });

  it('passes on a 404 message and hides internal errors behind a 500', async () => {
    expect((await app.inject('/api/demo/missing')).json()).toMatchObject({
      status: 404,
      code: 'PRODUCT_NOT_FOUND',
      detail: 'That thing is gone.',
      statusCode: 404,
      error: 'Not Found',
      message: 'That thing is gone.',
    });
    const crash = await app.inject('/api/demo/crash');
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('hunter2');
  });

  it('answers application/problem+json to a client that accepts it, every field named with its code and limit', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/demo/things',
      headers: { accept: 'application/problem+json, application/json' },
      payload: { name: '', price: -1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors[0]).toMatchObject({ field: 'body.name', code: 'FIELD_TOO_SHORT', params: { limit: 1 } });
  });

  it('lists every error answer in the OpenAPI document in both media types', async () => {
    const openapi = (await app.inject('/api/demo/openapi.json')).json();
    const answers = openapi.paths['/api/demo/things'].post.responses;
    expect(Object.keys(answers['400'].content).sort()).toEqual(['application/json', 'application/problem+json']);
    expect(Object.keys(answers['200'].content)).toEqual(['application/json']);
  });

  it('echoes a caller request id and publishes OpenAPI from the route schemas', async () => {
    const response = await app.inject({ url: '/health', headers: { 'x-request-id': 'req-123' } });
    expect(response.headers['x-request-id']).toBe('req-123');
    const openapi = (await app.inject('/api/demo/openapi.json')).json();
    expect(openapi.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.paths)).toContain('/api/demo/things');
  });
});

describe('Fastify options', () => {
  it('makes an app without a deprecation warning (request logging is switched off through the log controller)', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    try {
      const other = await createServiceApp({ name: 'quiet', logLevel: 'silent' });
      await other.ready();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      await other.close();
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.filter((w) => w.name === 'FastifyDeprecation').map((w) => w.message)).toEqual([]);
  });
});

describe('configuration', () => {
  const schema = Type.Composite([BaseConfig, portConfig(4999)]);
  it('applies defaults and coerces numbers', () => {
    const config = loadConfig(schema, { PORT: '4100' });
    expect(config.PORT).toBe(4100);
    expect(config.LOG_LEVEL).toBe('info');
  });
  it('fails at start-up on a malformed value', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(/PORT/);
  });
});

describe('identity from token claims', () => {
  it('reads subject, e-mail, realm roles and user type', () => {
    const identity = identityFromClaims({
      sub: 'u1',
      email: 'Ada@Farm.NG',
      email_verified: true,
      user_type: 'farmer',
      realm_access: { roles: ['farmer', 'offline_access'] },
    });
    expect(identity).toMatchObject({
      userId: 'u1',
      email: 'ada@farm.ng',
      emailVerified: true,
      userType: 'farmer',
      roles: ['farmer', 'offline_access'],
    });
  });
  it('ignores a user type the product does not know', () => {
    expect(identityFromClaims({ sub: 'u2', user_type: 'admin' }).userType).toBeUndefined();
  });
});
