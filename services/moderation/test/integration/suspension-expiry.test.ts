// A suspension for a time ends by itself (issue 26, docs/adr/0071): the sweep restores each account whose `until`
// has passed, in Keycloak (real, through the tuber-moderation client), in the audit log in the name of
// "Tuber Market", and with its AccountModerated event; an account suspended for good, or until later, stays.
// The models live in a scratch database; Redis, NATS and Keycloak are the running ones.
import mongoose from 'mongoose';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountModerated } from '@tuber/contracts';
import { connectRedis, RevokedSessions, type EventBus, type RedisClient } from '@tuber/kit';
import { createAccount, deleteAccount, keycloakUser } from '../../../../test/support/accounts.js';
import { mongoUrl, redisUrl, secret } from '../../../../test/support/credentials.js';
import { connectBus, tapEvents } from '../../../../test/e2e/support/market.js';
import { keycloakAccounts } from '../../src/domain/accounts.js';
import { endSuspensions, SYSTEM_MODERATOR } from '../../src/domain/expiry.js';
import { act } from '../../src/domain/actions.js';
import { moderationModels, type ModerationModels } from '../../src/domain/models.js';

let connection: mongoose.Connection;
let models: ModerationModels;
let redis: RedisClient;
let bus: EventBus;
const accounts: string[] = [];
const database = `moderation_expiry_${randomUUID().slice(0, 8)}`;
const keycloak = keycloakAccounts({
  baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`,
  realm: 'tuber',
  clientSecret: secret('keycloak-moderation-client-secret'),
});

beforeAll(async () => {
  connection = await mongoose.createConnection(mongoUrl(database)).asPromise();
  models = moderationModels(connection);
  redis = await connectRedis(redisUrl());
  bus = await connectBus('expiry-test');
}, 30_000);
afterAll(async () => {
  await connection?.dropDatabase().catch(() => undefined);
  await connection?.close();
  await bus?.close();
  await redis?.quit();
  await Promise.all(accounts.map((id) => deleteAccount(id)));
});

describe('timed suspensions', () => {
  it('end once their time has passed, and only then', async () => {
    const [due, later, forGood] = await Promise.all([1, 2, 3].map(() => createAccount({ role: 'farmer' })));
    accounts.push(due!.id, later!.id, forGood!.id);
    const deps = { models, bus, accounts: keycloak, revoked: new RevokedSessions(redis, { cache: false }), log: pino({ level: 'silent' }), redis };
    const moderator = { id: randomUUID(), name: 'Mod E.' };
    const target = (id: string) => ({ kind: 'farmer' as const, id, title: 'Farm', farmerId: id });
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    for (const account of [due!, later!]) {
      expect((await act(deps, moderator, target(account.id), { action: 'suspend', reason: 'Testing the end', until: inAMinute })).action).toBe('suspend');
    }
    await act(deps, moderator, target(forGood!.id), { action: 'suspend', reason: 'For good' });
    for (const account of [due!, later!, forGood!]) expect((await keycloakUser(account.id))?.enabled).toBe(false);

    // The first one's time passes (its end moved back, as if the minute were over); the sweep at "now" lifts only it.
    await models.AccountState.updateOne({ _id: due!.id }, { $set: { until: new Date(Date.now() - 1000) } });
    const events = tapEvents(bus, AccountModerated);
    const restored = await endSuspensions(deps, new Date());
    expect(restored).toEqual([due!.id]);
    expect((await keycloakUser(due!.id))?.enabled).toBe(true);
    expect((await keycloakUser(later!.id))?.enabled).toBe(false);
    expect((await keycloakUser(forGood!.id))?.enabled).toBe(false);
    const entry = await models.Audit.findOne({ subject_user_id: due!.id, action: 'restore' }).lean();
    expect(entry).toMatchObject({ moderator_id: SYSTEM_MODERATOR.id, moderator_name: 'Tuber Market', reason: 'The suspension ended.' });
    await expect.poll(() => events.seen.find((e) => e.payload.user_id === due!.id)?.payload).toMatchObject({ suspended: false, until: null, revision: 2 });
    events.stop();
    // A second sweep finds nothing more to do.
    expect(await endSuspensions(deps, new Date())).toEqual([]);
  }, 60_000);
});
