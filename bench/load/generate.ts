// Load generator, against this machine only. Two kinds (LOAD_MODE):
//   journeys (default): LOAD_USERS virtual users (default 10; 4 in 10 are farmers) walk the buyer
//     and farmer journeys of bench/load/journeys.ts through the gateway for LOAD_SECONDS (default
//     60), each from its own loopback address; prints requests, errors and p50/p95/p99 per route.
//   browse: a buyer's reads (feed pages, product details, nutrition) at a fixed LOAD_RATE req/s
//     (default 30) with autocannon.
//   make load LOAD_USERS=10 LOAD_SECONDS=120
//   make load LOAD_MODE=browse LOAD_RATE=50 LOAD_SECONDS=30
// The fault scenarios' load smoke (R6, test/chaos/r6-load-smoke.test.ts) runs the same journeys.
import autocannon from 'autocannon';
import { PUBLIC_URL } from '../../test/support/env.js';
import { deleteAccount, signedInAccount } from '../../test/support/accounts.js';
import { closeAgents } from '../../test/chaos/support/traffic.js';
import { runJourneys } from './journeys.js';

const mode = process.env.LOAD_MODE ?? 'journeys';
const seconds = Math.min(Number(process.env.LOAD_SECONDS ?? (mode === 'journeys' ? 60 : 20)), 600);
if (!/^http:\/\/(localhost|127\.\d+\.\d+\.\d+)(:\d+)?$/.test(PUBLIC_URL))
  throw new Error(`refusing to load anything but this machine (${PUBLIC_URL})`);

if (mode === 'journeys') {
  const users = Math.max(2, Math.min(Number(process.env.LOAD_USERS ?? 10), 100));
  const result = await runJourneys({ users, seconds, log: (line) => console.log(`load: ${line}`) });
  await closeAgents();
  console.log(`load: ${users} users for ${result.seconds.toFixed(0)} s through ${PUBLIC_URL}`);
  console.log(
    `journeys: buyer ${result.journeys.buyer}, farmer ${result.journeys.farmer}; requests ${result.requests}, errors ${result.errors.length}`,
  );
  for (const r of result.recorder.stats().sort((a, b) => a.route.localeCompare(b.route))) {
    console.log(
      `  ${r.route.padEnd(48)} ${String(r.count).padStart(6)}  p50 ${r.p50} ms  p95 ${r.p95} ms  p99 ${r.p99} ms  ${JSON.stringify(r.statuses)}`,
    );
  }
  for (const error of result.errors.slice(0, 20)) console.log(`  error: ${error}`);
  process.exitCode = result.errors.length ? 1 : 0;
} else {
  const rate = Number(process.env.LOAD_RATE ?? 30);
  const buyer = await signedInAccount({ role: 'buyer' });
  const auth = { authorization: `Bearer ${buyer.accessToken}` };
  const feed = (await (await fetch(`${PUBLIC_URL}/api/catalog/products?limit=12`, { headers: auth })).json()) as {
    items: { product_id: string }[];
  };
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
  console.log(
    `requests ${result.requests.total}, errors ${result.errors}, non-2xx ${result.non2xx}, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  await deleteAccount(buyer.id);
}
