// Buyer and farmer journeys through the gateway, as virtual users that each talk from their own
// loopback address (the gateway limits per client address; 127.0.0.x is all this machine).
//   buyer:  the shell page and the buyer remote's manifest, my profile, the feed's first page and
//           the next, two products, their tuber's nutrition, now and then a farmer's contact
//   farmer: my profile, my products, two photos uploaded, a product posted with them, my products
//           again, the business name changed, the previous journey's product deleted (the data
//           stays small; what is left goes with the accounts at the end)
// Every request has the status a person expects (200/201/204); anything else is an error. Users
// pause between steps like people do (THINK_MS), and a farmer's journey takes at least 6 s so that
// the per-account limits (60 uploads and 60 posts per 10 minutes) are never what the run measures.
import mongoose from 'mongoose';
import { mongoUrl } from '../../test/support/credentials.js';
import { actors, until, newProduct, Recorder, removeActors, tinyPhoto, photoForm, type Actor } from '../../test/chaos/support/traffic.js';

export interface JourneyOptions {
  /** Virtual users in all; farmers are `farmerShare` of them (at least one of each). */
  users: number;
  seconds: number;
  farmerShare?: number;
  /** Pause between a user's steps, ms (a random value between the two). */
  thinkMs?: [number, number];
  /** First loopback client address index (traffic.ts clientAddress). */
  firstAddress?: number;
  log?: (line: string) => void;
}

export interface JourneyResult {
  recorder: Recorder;
  journeys: { buyer: number; farmer: number };
  /** Requests whose status was not the expected one, by route and status. */
  errors: string[];
  requests: number;
  seconds: number;
}

const TUBERS = ['yam', 'cassava', 'potato', 'sweet potato', 'ginger'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runJourneys(options: JourneyOptions): Promise<JourneyResult> {
  const farmersCount = Math.max(1, Math.min(options.users - 1, Math.round(options.users * (options.farmerShare ?? 0.4))));
  const buyersCount = options.users - farmersCount;
  const first = options.firstAddress ?? 100;
  const [think0, think1] = options.thinkMs ?? [300, 900];
  const think = () => sleep(think0 + Math.random() * (think1 - think0));
  const log = options.log ?? (() => undefined);

  const [farmers, buyers] = await Promise.all([actors('farmer', farmersCount, first), actors('buyer', buyersCount, first + farmersCount)]);
  const recorder = new Recorder();
  const errors: string[] = [];
  const journeys = { buyer: 0, farmer: 0 };
  let requests = 0;

  /** One step: a call that must answer one of `expected` (the first is the usual answer). */
  const step = async (
    actor: Actor,
    method: string,
    path: string,
    expected: number | number[],
    extra: Parameters<Actor['call']>[2] = {},
  ) => {
    requests += 1;
    const answer = await actor.call(method, path, { ...extra, recorder });
    if (!(Array.isArray(expected) ? expected : [expected]).includes(answer.status)) {
      errors.push(
        `${extra.route ?? method + ' ' + path}: ${answer.status} (expected ${String(expected)}) ${JSON.stringify(answer.body)?.slice(0, 200)}`,
      );
    }
    return answer;
  };

  try {
    // Farmers have a catalog record before their first post (it arrives by event).
    const catalog = await mongoose.createConnection(mongoUrl('catalog', 'catalog')).asPromise();
    try {
      const ids = farmers.map((f) => f.id);
      await until(
        () => catalog.collection('farmer').countDocuments({ farmer_id: { $in: ids } }),
        (n) => n === ids.length,
        30_000,
      );
    } finally {
      await catalog.close();
    }
    const photo = await tinyPhoto();
    const deadline = Date.now() + options.seconds * 1000;
    const started = Date.now();

    const buyer = async (actor: Actor) => {
      for (let n = 0; Date.now() < deadline; n++) {
        await step(actor, 'GET', '/', 200, { route: 'GET / (shell page)' });
        await step(actor, 'GET', '/mf/buyer/mf-manifest.json', 200, { route: 'GET /mf/buyer/mf-manifest.json' });
        await step(actor, 'GET', '/api/profile/me', 200);
        await think();
        const feed = await step(actor, 'GET', '/api/catalog/products?limit=12', 200, { route: 'GET /api/catalog/products (first page)' });
        const items = (feed.body?.items ?? []) as { product_id: string; farmer_id: string; tuber_type: string }[];
        await think();
        if (feed.body?.next_cursor) {
          await step(actor, 'GET', `/api/catalog/products?limit=12&cursor=${encodeURIComponent(feed.body.next_cursor)}`, 200, {
            route: 'GET /api/catalog/products (next page)',
          });
          await think();
        }
        for (const item of items.slice(n % 6, (n % 6) + 2)) {
          // A product deleted between the feed and the click answers 404: the person sees it is gone.
          await step(actor, 'GET', `/api/catalog/products/${item.product_id}`, [200, 404], { route: 'GET /api/catalog/products/:id' });
          await step(actor, 'GET', `/api/nutrition/${encodeURIComponent(item.tuber_type)}`, 200, { route: 'GET /api/nutrition/:tuber' });
          await think();
        }
        if (n % 4 === 3 && items[0]) {
          // 404: that farmer's account was deleted meanwhile.
          await step(actor, 'GET', `/api/profile/farmers/${items[0].farmer_id}/contact`, [200, 404], {
            route: 'GET /api/profile/farmers/:id/contact',
          });
          await think();
        }
        journeys.buyer += 1;
      }
    };

    const farmer = async (actor: Actor, f: number) => {
      let previous: string | undefined;
      for (let n = 0; Date.now() < deadline; n++) {
        const began = Date.now();
        await step(actor, 'GET', '/api/profile/me', 200);
        await step(actor, 'GET', '/api/catalog/products/mine', 200);
        await think();
        const ids: string[] = [];
        for (const side of ['front', 'side']) {
          const upload = await step(actor, 'POST', '/api/media/images', 201, { form: photoForm(photo, `${side}.jpg`) });
          if (upload.status === 201) ids.push(upload.body.image_id as string);
        }
        await think();
        if (ids.length === 2) {
          // The photos' ImageStored events reach the catalog within moments; the post waits for them.
          const posted = await step(actor, 'POST', '/api/catalog/products', 201, {
            json: newProduct(`Load yam ${f}.${n}`, ids, TUBERS[n % TUBERS.length]),
          });
          await think();
          await step(actor, 'GET', '/api/catalog/products/mine', 200);
          await step(actor, 'PATCH', '/api/profile/me', 200, { json: { business_name: `Load Farm ${f}.${n}` } });
          await think();
          // The product of the journey before goes: the feed keeps each farmer's latest (and the data stays small).
          if (previous) await step(actor, 'DELETE', `/api/catalog/products/${previous}`, 204);
          previous = posted.status === 201 ? (posted.body.product_id as string) : undefined;
        }
        journeys.farmer += 1;
        const left = 6_000 - (Date.now() - began);
        if (left > 0 && Date.now() + left < deadline) await sleep(left);
      }
    };

    log(`${buyersCount} buyers and ${farmersCount} farmers for ${options.seconds} s`);
    await Promise.all([...buyers.map((b) => buyer(b)), ...farmers.map((a, f) => farmer(a, f))]);
    return { recorder, journeys, errors, requests, seconds: (Date.now() - started) / 1000 };
  } finally {
    await removeActors([...farmers, ...buyers]);
  }
}
