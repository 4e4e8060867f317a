// A small market for the order-request browser tests (issue 12): farmers with profiles and products
// made through the product's own API, the event bus as the services use it (to watch and replay
// events), and waits on the durable consumers that carry a change from one service to another.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM, type EventContract, type EventPayload } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { signedInAccount, type AccountOptions, type TestAccount } from '../../support/accounts.js';
import { api, eventually, imageForm, photo } from '../../support/api.js';
import { natsUrl } from '../../support/credentials.js';

/** A signed-in account whose profile exists (other services learn of it by event, a moment later). */
export async function accountWithProfile(options: AccountOptions): Promise<TestAccount> {
  const account = await signedInAccount(options);
  const created = await api('POST', '/api/profile/me', { token: account.accessToken });
  if (created.status !== 201) throw new Error(`POST /api/profile/me answered ${created.status}: ${JSON.stringify(created.body)}`);
  return account;
}

let picture: Buffer | undefined;

/** Uploads two small photos as the farmer and posts a product; waits while the catalog has not heard of the profile yet. */
export async function postProduct(
  farmer: TestAccount,
  fields: Record<string, unknown>,
): Promise<{ product_id: string } & Record<string, any>> {
  picture ??= await photo(320, 240);
  const image_ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const answer = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(picture, `order test ${i}.jpg`) });
    if (answer.status !== 201) throw new Error(`uploading a photo answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    image_ids.push(answer.body.image_id);
  }
  const body = {
    description: 'Freshly harvested tubers from our farm near the river, sorted and washed this week',
    tuber_type: 'yam',
    cultural: 'Central to the New Yam festival',
    image_ids,
    ...fields,
  };
  const posted = await eventually(
    () => api('POST', '/api/catalog/products', { token: farmer.accessToken, json: body }),
    (answer) => !(answer.status === 409 && /profile/i.test(answer.body?.message ?? '')),
    30_000,
  );
  if (posted.status !== 201) throw new Error(`POST /api/catalog/products answered ${posted.status}: ${JSON.stringify(posted.body)}`);
  return posted.body;
}

/** The product as the catalog serves it now. */
export async function catalogProduct(token: string, productId: string): Promise<Record<string, any>> {
  const answer = await api('GET', `/api/catalog/products/${productId}`, { token });
  if (answer.status !== 200)
    throw new Error(`GET /api/catalog/products/${productId} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The event bus as `tuber-test` (every right), to watch events and publish them again. */
export function connectBus(name: string): Promise<EventBus> {
  return EventBus.connect(natsUrl(), `${name}-${randomUUID().slice(0, 6)}`, pino({ level: 'silent' }));
}

/** Every event of `contract` published from now on, in arrival order, with its message id. */
export function tapEvents<E extends EventContract>(
  bus: EventBus,
  contract: E,
): { seen: { messageId: string; payload: EventPayload<E> }[]; stop: () => void } {
  const seen: { messageId: string; payload: EventPayload<E> }[] = [];
  const subscription: Subscription = bus.connection.subscribe(contract.subject);
  void (async () => {
    for await (const message of subscription as AsyncIterable<Msg>)
      seen.push({ messageId: message.headers?.get('Nats-Msg-Id') ?? '', payload: message.json() });
  })();
  return { seen, stop: () => subscription.unsubscribe() };
}

/** Waits until the durable consumers have nothing left to deliver or to be acknowledged: all published so far is handled. */
export async function consumersSettled(bus: EventBus, durables: string[], timeoutMs = 20_000): Promise<void> {
  const jsm = await jetstreamManager(bus.connection);
  const infos = await eventually(
    () => Promise.all(durables.map((durable) => jsm.consumers.info(EVENT_STREAM, durable))),
    (all) => all.every((info) => info.num_pending === 0 && info.num_ack_pending === 0),
    timeoutMs,
  );
  const busy = infos.filter((info) => info.num_pending > 0 || info.num_ack_pending > 0);
  if (busy.length > 0)
    throw new Error(
      `consumers still busy after ${timeoutMs} ms: ${busy.map((i) => `${i.name} (pending ${i.num_pending}, unacknowledged ${i.num_ack_pending})`).join(', ')}`,
    );
}

/** A calendar day `days` from today in Lagos (YYYY-MM-DD), as a date input takes it. */
export function lagosDay(days: number): string {
  const at = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * Uploads `count` real photos as `owner` (a hue each, so a page shows them apart); answers their ids.
 * `label` names the files (the test and run), `size` their pixels.
 */
export async function uploadPhotos(
  owner: TestAccount,
  count: number,
  hue: number,
  label: string,
  size: { width: number; height: number } = { width: 320, height: 240 },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await api('POST', '/api/media/images', {
      token: owner.accessToken,
      form: imageForm(await photo(size.width, size.height, (hue + i * 60) % 256), `${label} ${hue}-${i}.jpg`),
    });
    if (answer.status !== 201) throw new Error(`photo upload answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    ids.push(answer.body.image_id as string);
  }
  return ids;
}

/**
 * Waits until the orders service's copy of a product (it learns products by event) has this price and unit: a
 * request for far more than any stock is refused "above_stock" once they match, "price_changed" or
 * "unavailable" before. Never creates a request (a refused send still counts towards the buyer's limit).
 */
export async function ordersKnowProduct(
  buyerToken: string,
  product: { farmerId: string; productId: string; price: number; unit: string },
): Promise<void> {
  const answer = await eventually(
    () =>
      api('POST', '/api/orders/requests', {
        token: buyerToken,
        json: {
          request_id: randomUUID(),
          farmer_id: product.farmerId,
          lines: [{ product_id: product.productId, quantity: 999_999, price: product.price, unit: product.unit }],
          fulfilment: 'pickup',
          preferred_date: lagosDay(1),
          phone: '08031234567',
        },
      }),
    (a) => a.status === 409 && a.body?.problems?.[0]?.problem === 'above_stock',
    30_000,
  );
  if (answer.body?.problems?.[0]?.problem !== 'above_stock') {
    throw new Error(`the orders service does not know ${product.productId} at ₦${product.price} per ${product.unit}: ${JSON.stringify(answer.body)}`);
  }
}
