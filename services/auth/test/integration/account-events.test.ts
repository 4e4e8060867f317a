// The relay from Keycloak's user and admin events to NATS (docs/adr/0021), in-process against the
// real Keycloak, Redis and NATS. Each relay here keeps its cursor and lease under its own Redis
// prefix, so the running auth service (which relays the same events) does not take its turns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { AccountDeleted, AccountEmailChanged, type EventContract } from '@tuber/contracts';
import { EventBus, closeRedis, connectRedis, type RedisClient } from '@tuber/kit';
import { AccountEventRelay } from '../../src/events/keycloak-events.js';
import { keycloakDirectory } from '../../src/keycloak.js';
import { createAccount, deleteAccount, keycloakUser } from '../../../../test/support/accounts.js';
import { natsUrl, redisUrl } from '../../../../test/support/credentials.js';
import { serviceEnv } from '../../../../test/support/env.js';

const log = pino({ level: 'silent' });
let redis: RedisClient;
let bus: EventBus;
const created: string[] = [];

/** What a relay published (it publishes for real; this only keeps a copy). */
interface Published {
  subject: string;
  payload: Record<string, unknown>;
  messageId: string;
}

const directory = keycloakDirectory({
  baseUrl: serviceEnv('auth').KEYCLOAK_URL!,
  realm: 'tuber',
  clientId: 'tuber-auth',
  clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  webClientId: 'tuber-web',
  afterVerifyUrl: 'http://localhost:8080/login',
});

function relayWith(prefix: string) {
  const published: Published[] = [];
  const recording = {
    async publish<E extends EventContract>(event: E, payload: never, messageId: string) {
      const ack = await bus.publish(event, payload, messageId);
      published.push({ subject: event.subject, payload, messageId });
      return ack;
    },
  };
  const relay = new AccountEventRelay(
    { events: directory, accounts: directory, bus: recording, redis, log },
    { keyPrefix: prefix, lookbackMs: 60_000 },
  );
  return { relay, published };
}

const about = (published: Published[], subject: string, userId: string) =>
  published.filter((p) => p.subject === subject && p.payload.user_id === userId);

/** Reads until the relay has published something about `userId` on `subject` (Keycloak stores events as it answers). */
async function pollUntil(relay: AccountEventRelay, published: Published[], subject: string, userId: string) {
  const deadline = Date.now() + 15_000;
  while (about(published, subject, userId).length === 0 && Date.now() < deadline) {
    await relay.pollOnce();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return about(published, subject, userId);
}

beforeAll(async () => {
  redis = await connectRedis(redisUrl('auth'));
  bus = await EventBus.connect(natsUrl('auth'), 'auth-relay-test', log);
});
afterAll(async () => {
  await Promise.all(created.map(deleteAccount));
  await bus?.close();
  if (redis) await closeRedis(redis);
});

const prefix = () => `auth:test-kc-events:${randomUUID()}`;

describe("Keycloak's account events on NATS", () => {
  it('publishes AccountDeleted once for an account deleted in Keycloak, and nothing more on later reads or after a restart', async () => {
    const key = prefix();
    const { relay, published } = relayWith(key);
    const account = await createAccount({ role: 'buyer' });
    await relay.pollOnce(); // the cursor starts here
    await deleteAccount(account.id);

    const deleted = await pollUntil(relay, published, AccountDeleted.subject, account.id);
    expect(deleted).toEqual([
      {
        subject: 'tuber.identity.account.deleted.v1',
        payload: { user_id: account.id, deleted_at: expect.any(String) },
        messageId: `identity-account-deleted:${account.id}`,
      },
    ]);
    await relay.pollOnce();
    expect(about(published, AccountDeleted.subject, account.id)).toHaveLength(1);

    // A new process (same cursor in Redis) goes on from where the last one stopped.
    const restarted = relayWith(key);
    expect(await restarted.relay.pollOnce()).toBeDefined();
    expect(about(restarted.published, AccountDeleted.subject, account.id)).toEqual([]);
  });

  it('publishes an e-mail change with the address Keycloak holds and whether it is verified', async () => {
    const { relay, published } = relayWith(prefix());
    const account = await createAccount({ role: 'buyer' });
    created.push(account.id);
    await relay.pollOnce();
    const user = (await keycloakUser(account.id))!;
    const moved = `moved-${randomUUID().slice(0, 8)}@test.tuber.local`;
    const { default: KcAdminClient } = await import('@keycloak/keycloak-admin-client');
    const kc = new KcAdminClient({ baseUrl: serviceEnv('auth').KEYCLOAK_URL!, realmName: 'tuber' });
    await kc.auth({ grantType: 'client_credentials', clientId: 'tuber-auth', clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '' });
    await kc.users.update({ id: account.id }, { ...user, email: moved, emailVerified: false });

    const changes = await pollUntil(relay, published, AccountEmailChanged.subject, account.id);
    expect(changes.at(-1)?.payload).toEqual({ user_id: account.id, email: moved, email_verified: false, changed_at: expect.any(String) });
    expect(about(published, AccountDeleted.subject, account.id)).toEqual([]);
  });

  it('lets one replica read at a time', async () => {
    const key = prefix();
    const [one, two] = [relayWith(key), relayWith(key)];
    const turns = await Promise.all([one.relay.pollOnce(), two.relay.pollOnce()]);
    // One read (a count), the other found the lease taken (undefined) and did nothing.
    expect(turns.filter((turn) => turn === undefined)).toHaveLength(1);
    expect(turns.filter((turn) => typeof turn === 'number')).toHaveLength(1);
    // The lease goes with the read: the next turn is free.
    expect(await two.relay.pollOnce()).toBeDefined();
  });
});
