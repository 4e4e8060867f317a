// A dependency that is away is a 503 with Retry-After and a message naming it, never a 500
// (docs/adr/0024). The errors are the ones the real clients raise (by name: the drivers are not
// imported here); integration/outages.test.ts gets them from the real FerretDB and NATS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusUnavailableError, createServiceApp, unavailable, unavailableDependency, type ServiceApp } from '../../src/index.js';

const named = (name: string, message = 'failed') => Object.assign(new Error(message), { name });

const cases: [string, Error, string | undefined][] = [
  ['MongoDB server selection (driver)', named('MongoServerSelectionError', 'Server selection timed out after 5000 ms'), 'database'],
  ['MongoDB server selection (mongoose)', named('MongooseServerSelectionError'), 'database'],
  ['MongoDB network time-out', named('MongoNetworkTimeoutError', 'connection 3 to 127.0.0.1:27017 timed out'), 'database'],
  ['MongoDB pool cleared by the monitor', named('PoolClearedOnNetworkError'), 'database'],
  ['MongoDB not connected', named('MongoNotConnectedError', 'Client must be connected before running operations'), 'database'],
  ['node-redis closed client', named('ClientClosedError', 'The client is closed'), 'redis'],
  ['node-redis socket closed', named('SocketClosedUnexpectedlyError'), 'redis'],
  ['ioredis offline', named('Error', "Stream isn't writeable and enableOfflineQueue options is false"), 'redis'],
  ['the event bus', new BusUnavailableError('The event bus is not connected'), 'event bus'],
  ['wrapped in a cause', new Error('saving failed', { cause: named('MongoNetworkError') }), 'database'],
  [
    'FerretDB out of PostgreSQL connection slots (as logged in the R1 fault run)',
    named(
      'MongoServerError',
      '[msg_update.go:117 handler.(*Handler).updateDocument] failed to connect to `user=profile database=ferretdb`: server error: FATAL: remaining connection slots are reserved for non-replication superuser connections (SQLSTATE 53300)',
    ),
    'database',
  ],
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')"), undefined],
  ['a duplicate key', Object.assign(named('MongoServerError', 'E11000 duplicate key error'), { code: 11000 }), undefined],
];

let app: ServiceApp;
beforeAll(async () => {
  app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  cases.forEach(([, error], i) =>
    app.get(`/api/demo/${i}`, async () => {
      throw error;
    }),
  );
  app.get('/api/demo/limits', async () => {
    throw unavailable('LIMITS_UNAVAILABLE', 'Request limits cannot be checked right now.', 30);
  });
});
afterAll(async () => app.close());

describe('unavailable dependencies', () => {
  for (const [what, error, dependency] of cases) {
    it(`${what}: ${dependency ? `503 naming the ${dependency}` : 'not an outage'}`, async () => {
      expect(unavailableDependency(error)).toBe(dependency);
      const response = await app.inject(`/api/demo/${cases.findIndex(([w]) => w === what)}`);
      if (dependency) {
        expect(response.statusCode).toBe(503);
        expect(response.headers['retry-after']).toBe('10');
        expect(response.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
        expect(response.json().message).toContain(`${dependency === 'redis' ? 'Redis' : `The ${dependency}`}`);
        expect(response.json().message).toMatch(/try again/);
      } else {
        expect(response.statusCode).toBe(500);
        expect(response.json().message).not.toContain(error.message);
      }
    });
  }

  it('leaves a 503 raised on purpose as it was (its own message and Retry-After)', async () => {
    const response = await app.inject('/api/demo/limits');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json().code).toBe('LIMITS_UNAVAILABLE');
    expect(response.json().message).toBe('Request limits cannot be checked right now.');
  });
});
