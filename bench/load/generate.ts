// Load generator: a buyer browsing through the gateway (feed pages, product details, nutrition
// lookups) at a fixed rate for a bounded time, against this machine only. Prints what it saw.
//   make load LOAD_RATE=50 LOAD_SECONDS=30
import autocannon from 'autocannon';
import { PUBLIC_URL } from '../../test/support/env.js';
import { deleteAccount, signedInAccount } from '../../test/support/accounts.js';

const rate = Number(process.env.LOAD_RATE ?? 30);
const seconds = Math.min(Number(process.env.LOAD_SECONDS ?? 20), 300);
if (!/^http:\/\/(localhost|127\.\d+\.\d+\.\d+)(:\d+)?$/.test(PUBLIC_URL)) throw new Error(`refusing to load anything but this machine (${PUBLIC_URL})`);

const buyer = await signedInAccount({ role: 'buyer' });
const auth = { authorization: `Bearer ${buyer.accessToken}` };
const feed = (await (await fetch(`${PUBLIC_URL}/api/catalog/products?limit=12`, { headers: auth })).json()) as { items: { product_id: string }[] };
const ids = feed.items.map((p) => p.product_id);
const tubers = ['yam', 'cassava', 'potato', 'sweet%20potato', 'tumeric', 'garlic', 'ginger'];

const result = await autocannon({
  url: PUBLIC_URL,
  connections: 8,
  overallRate: rate,
  duration: seconds,
  requests: [
    { method: 'GET', path: '/api/catalog/products?limit=12', headers: auth },
    ...ids.slice(0, 5).map((id) => ({ method: 'GET' as const, path: `/api/catalog/products/${id}`, headers: auth })),
    ...tubers.map((t) => ({ method: 'GET' as const, path: `/api/nutrition/${t}` })),
  ],
});
console.log(`load: ${rate} req/s for ${seconds} s through ${PUBLIC_URL}`);
console.log(`requests ${result.requests.total}, errors ${result.errors}, non-2xx ${result.non2xx}, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
await deleteAccount(buyer.id);
