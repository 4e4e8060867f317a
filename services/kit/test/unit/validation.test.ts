// Request validation: text parts (query, path, headers) are coerced to their schema's types, a JSON
// body is taken as sent. Before, `{"location": false}` was stored as the text "false".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { createServiceApp, type ServiceApp } from '../../src/index.js';
import { nulCharacterAt } from '../../src/app.js';

let app: ServiceApp;

beforeAll(async () => {
  app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  app.patch(
    '/api/demo/things/:id',
    {
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        querystring: Type.Object({
          tags: Type.Optional(Type.Array(Type.String())),
          dry: Type.Optional(Type.Boolean()),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
          min_price: Type.Optional(Type.Number({ minimum: 0 })),
        }),
        body: Type.Object({ location: Type.Optional(Type.String()), kg: Type.Optional(Type.Number()) }, { additionalProperties: false }),
      },
    },
    async (request) => ({ params: request.params, query: request.query, body: request.body }),
  );
  await app.ready();
});
afterAll(async () => app?.close());

describe('request validation', () => {
  it('refuses a boolean where the body wants text, instead of storing "false"', async () => {
    const reply = await app.inject({ method: 'PATCH', url: '/api/demo/things/1', payload: { location: false } });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().message).toMatch(/location/);
  });

  it('refuses a number sent as text in the body', async () => {
    const reply = await app.inject({ method: 'PATCH', url: '/api/demo/things/1', payload: { kg: '12' } });
    expect(reply.statusCode).toBe(400);
  });

  it('still reads path and query text as their schema types', async () => {
    const reply = await app.inject({
      method: 'PATCH',
      url: '/api/demo/things/7?tags=yam&dry=true',
      payload: { location: 'Ibadan', kg: 2.5 },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ params: { id: 7 }, query: { tags: ['yam'], dry: true }, body: { location: 'Ibadan', kg: 2.5 } });
  });
});

describe('numbers in the query and the path are finite (issue 24)', () => {
  for (const [what, url] of [
    ['limit=Infinity', '/api/demo/things/1?limit=Infinity'],
    ['limit=1e400', '/api/demo/things/1?limit=1e400'],
    ['min_price=-Infinity', '/api/demo/things/1?min_price=-Infinity'],
    ['a path id of 1e400', '/api/demo/things/1e400'],
  ] as const) {
    it(`refuses ${what} with 400 and says which field`, async () => {
      const reply = await app.inject({ method: 'PATCH', url, payload: {} });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(reply.json().message).toMatch(/"(limit|min_price|id)" must be a finite number/);
    });
  }

  it('still takes finite numbers within the schema', async () => {
    const reply = await app.inject({ method: 'PATCH', url: '/api/demo/things/1?limit=50&min_price=0.5', payload: {} });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().query).toEqual({ limit: 50, min_price: 0.5 });
  });
});

describe('the NUL character (U+0000), which PostgreSQL under FerretDB cannot store', () => {
  it('is refused anywhere in a JSON body with 400 naming where', async () => {
    const reply = await app.inject({ method: 'PATCH', url: '/api/demo/things/1', payload: { location: 'Ibadan\u0000' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().message).toBe('body/location: text must not contain the NUL character (U+0000).');
  });

  it('is found in nested arrays and objects, and nothing else is', () => {
    expect(nulCharacterAt({ lines: [{ note: 'ok' }, { note: 'a\u0000b' }] })).toBe('/lines/1/note');
    expect(nulCharacterAt({ lines: [{ note: 'ok' }], name: 'Ẹ̀gẹ́ 🍠', kg: 3, none: null })).toBeNull();
    expect(nulCharacterAt(undefined)).toBeNull();
    expect(nulCharacterAt('\u0000')).toBe('/');
  });
});
