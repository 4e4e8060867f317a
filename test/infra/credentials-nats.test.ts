// NATS signs every client in and lets each service publish only its own events and read only
// through its own durable consumers (docs/adr/0017, infra/nats/permissions.json). A front end,
// or any other process without the password, cannot forge `profile.farmer.changed`.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, AckPolicy, type JetStreamManager } from '@nats-io/jetstream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STREAM, FarmerProfileChanged, OrderAccepted, ProductCreated } from '@tuber/contracts';
import { EventBus, natsServer } from '@tuber/kit';
import { natsUrl } from '../support/credentials.js';

const log = pino({ level: 'silent' });
const address = natsServer(natsUrl()).servers;
const opened: NatsConnection[] = [];

/** A raw connection as `user` (password from the generated secrets unless given). */
async function as(user: string, password?: string): Promise<NatsConnection> {
  const { servers, pass } = natsServer(natsUrl(user));
  const connection = await connect({ servers, user, pass: password ?? pass, inboxPrefix: `_INBOX_${user}`, maxReconnectAttempts: 0 });
  opened.push(connection);
  return connection;
}

/** How many messages the stream holds on `subject`, as the test user sees it. */
async function countOn(jsm: JetStreamManager, subject: string): Promise<number> {
  const info = await jsm.streams.info(EVENT_STREAM, { subjects_filter: subject });
  return Object.values(info.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
}

const farmerChanged = {
  farmer_id: 'forged-farmer',
  business_name: 'Forged Farm',
  location: 'Nowhere',
  tuber: ['yam'],
  revision: 1,
};

let admin: NatsConnection;
let jsm: JetStreamManager;

beforeAll(async () => {
  // The stream exists once any service has started; make sure for a run on fresh servers.
  const bus = await EventBus.connect(natsUrl(), 'credentials-test', log);
  await bus.close();
  admin = await as('tuber-test');
  jsm = await jetstreamManager(admin);
});

afterAll(async () => {
  await Promise.allSettled(opened.map((c) => c.close()));
});

describe('NATS requires credentials', () => {
  it('refuses a client without a user', async () => {
    await expect(connect({ servers: address, maxReconnectAttempts: 0 })).rejects.toThrow(/Authorization/i);
  });

  it('refuses a service user with a wrong password', async () => {
    await expect(as('profile', 'not-the-password')).rejects.toThrow(/Authorization/i);
  });
});

describe('each service publishes only its own events', () => {
  it('profile publishes in its own context (a probe subject no service consumes)', async () => {
    const probe = 'tuber.profile.credentials-probe.v1';
    const before = await countOn(jsm, probe);
    const js = jetstream(await as('profile'), { timeout: 2_000 });
    await expect(js.publish(probe, '{}')).resolves.toMatchObject({ stream: EVENT_STREAM });
    expect(await countOn(jsm, probe)).toBe(before + 1);
  });

  for (const service of ['catalog', 'media', 'auth', 'orders', 'moderation']) {
    it(`${service} cannot forge profile.farmer.changed: the publish fails and the stream does not get it`, async () => {
      const before = await countOn(jsm, FarmerProfileChanged.subject);
      const js = jetstream(await as(service), { timeout: 2_000 });
      await expect(js.publish(FarmerProfileChanged.subject, JSON.stringify(farmerChanged))).rejects.toThrow(
        /permission|timeout|no responders/i,
      );
      // Core NATS publish (no acknowledgement asked) is dropped by the server as well.
      const core = await as(service);
      core.publish(FarmerProfileChanged.subject, JSON.stringify(farmerChanged));
      await core.flush().catch(() => undefined);
      expect(await countOn(jsm, FarmerProfileChanged.subject)).toBe(before);
    });
  }

  it('only orders publishes order events: the catalog, which takes stock on order.accepted, cannot forge one', async () => {
    for (const service of ['catalog', 'profile']) {
      const before = await countOn(jsm, OrderAccepted.subject);
      const js = jetstream(await as(service), { timeout: 2_000 });
      await expect(js.publish(OrderAccepted.subject, '{}'), service).rejects.toThrow(/permission|timeout|no responders/i);
      expect(await countOn(jsm, OrderAccepted.subject), service).toBe(before);
    }
    const probe = 'tuber.orders.credentials-probe.v1';
    const before = await countOn(jsm, probe);
    await expect(jetstream(await as('orders'), { timeout: 2_000 }).publish(probe, '{}')).resolves.toMatchObject({ stream: EVENT_STREAM });
    expect(await countOn(jsm, probe)).toBe(before + 1);
  });

  it('profile cannot publish catalog.product.created', async () => {
    const before = await countOn(jsm, ProductCreated.subject);
    const js = jetstream(await as('profile'), { timeout: 2_000 });
    await expect(js.publish(ProductCreated.subject, '{}')).rejects.toThrow(/permission|timeout|no responders/i);
    expect(await countOn(jsm, ProductCreated.subject)).toBe(before);
  });
});

describe('each service reads only through its own consumers', () => {
  it('catalog cannot subscribe to the event subjects directly, nor to another user’s replies', async () => {
    const catalog = await as('catalog');
    const errors: Error[] = [];
    catalog.subscribe('tuber.>', { callback: (err) => err && errors.push(err) });
    catalog.subscribe('_INBOX_profile.>', { callback: (err) => err && errors.push(err) });
    await catalog.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(errors.map((e) => e.message).join('\n')).toMatch(/permission/i);
    expect(errors).toHaveLength(2);
  });

  it('catalog cannot create a consumer for events it does not take (profile.created), nor use another service’s durable', async () => {
    const catalogJsm = await jetstreamManager(await as('catalog'), { timeout: 2_000 });
    await expect(
      catalogJsm.consumers.add(EVENT_STREAM, {
        durable_name: 'catalog-snoop',
        filter_subject: 'tuber.profile.created.v1',
        ack_policy: AckPolicy.Explicit,
      }),
    ).rejects.toThrow();
    await expect(catalogJsm.consumers.info(EVENT_STREAM, 'media-attach-images')).rejects.toThrow();
    const names: string[] = [];
    for await (const consumer of jsm.consumers.list(EVENT_STREAM)) names.push(consumer.name);
    expect(names).not.toContain('catalog-snoop');
  });
});
