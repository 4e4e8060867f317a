// Inputs that once reached the database or the store unchecked (issue 24). Every numeric query or path
// parameter any service declares in its OpenAPI document is sent as Infinity, -Infinity and 1e400; each
// must answer 400 naming the field, never 500 (FerretDB failed on them) nor pass a declared minimum.
// An upload's file name is kept to 255 bytes (one of 80 KB was stored whole), and a sign-up whose name
// Keycloak would refuse answers 400 naming the field (it answered "Registration successful" and made no
// account).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageForm, photo } from '../support/api.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { openApiDocument } from './support/openapi.js';
import { call, isErrorShape, SERVICES } from './support/stack.js';

interface NumericParameter {
  method: string;
  path: string;
  name: string;
  where: 'query' | 'path';
}

/** Every numeric parameter of every operation, from the documents the services publish. */
async function numericParameters(): Promise<NumericParameter[]> {
  const found: NumericParameter[] = [];
  for (const service of SERVICES) {
    const doc = await openApiDocument(service);
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
      for (const [method, op] of Object.entries<Record<string, any>>(item)) {
        for (const parameter of (op?.parameters ?? []) as { in: string; name: string; schema?: { type?: string } }[]) {
          if ((parameter.in === 'query' || parameter.in === 'path') && ['integer', 'number'].includes(parameter.schema?.type ?? '')) {
            found.push({ method: method.toUpperCase(), path, name: parameter.name, where: parameter.in });
          }
        }
      }
    }
  }
  return found;
}

const parameters = await numericParameters();
let buyer: Actor;
let farmer: Actor;
beforeAll(async () => {
  buyer = await makeActor('inputs buyer', { role: 'buyer' });
  farmer = await makeActor('inputs farmer', { role: 'farmer' });
}, 60_000);
afterAll(() => disposeCast({ buyer, farmer }));

describe('numbers in query strings and paths are finite and within their schema', () => {
  it('finds the numeric parameters to try', () => {
    expect(parameters.length).toBeGreaterThanOrEqual(5);
  });

  for (const { method, path, name, where } of parameters) {
    for (const value of ['Infinity', '-Infinity', '1e400']) {
      it(`${method} ${path} ${where} ${name}=${value} answers 400`, async () => {
        const filled = where === 'path' ? path.replace(`{${name}}`, value) : path.replace(/\{[^}]+\}/g, '1');
        const url = where === 'query' ? `${filled}?${name}=${encodeURIComponent(value)}` : filled;
        // The caller the route lets in: a buyer, or a farmer where buyers are refused.
        let answer = await call(method, url, { token: await buyer.token() });
        if (answer.status === 403) answer = await call(method, url, { token: await farmer.token() });
        expect(answer.status, answer.text.slice(0, 300)).toBe(400);
        expect(isErrorShape(answer.body, 400)).toBe(true);
        // A number parameter says it must be finite; one limited to a few values (days=7|30) names them.
        expect(answer.body.message).toMatch(new RegExp(`"${name}" must be (a finite number|equal to one of the allowed values)`));
      });
    }
  }
});

describe('an upload’s file name is kept to 255 bytes', () => {
  it('stores an 80 KB name as 255 bytes that keep its extension', async () => {
    const name = `${'yam'.repeat(27_000)}.jpg`;
    const answer = await call('POST', '/api/media/images', { token: await farmer.token(), form: imageForm(await photo(400, 300), name) });
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    expect(Buffer.byteLength(answer.body.file_name as string)).toBeLessThanOrEqual(255);
    expect(answer.body.file_name).toMatch(/^\d+_yamyam.*\.jpg$/);
  });
});

describe('sign-up refuses a name Keycloak would refuse, before answering', () => {
  for (const [field, value, named] of [
    ['firstname', '<b>Ada</b>', 'First name'],
    ['lastname', 'Obi (farm)', 'Last name'],
  ] as const) {
    it(`${field} ${JSON.stringify(value)} answers 400 naming ${named}`, async () => {
      const body = {
        firstname: 'Ada',
        lastname: 'Obi',
        email: `names-${randomUUID().slice(0, 8)}@example.test`,
        phone: '08031234567',
        password: 'Yam-harvest-2026!',
        confirm_password: 'Yam-harvest-2026!',
        [field]: value,
      };
      const answer = await call('POST', '/api/auth/signup/buyer', { json: body });
      expect(answer.status, answer.text.slice(0, 300)).toBe(400);
      expect(isErrorShape(answer.body, 400)).toBe(true);
      expect(answer.body.message).toContain(named);
    });
  }
});
