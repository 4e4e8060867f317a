// R6 (issue 10 §2): load smoke — 10 virtual users walk the buyer and farmer journeys of
// `make load` (bench/load/journeys.ts) through the gateway for 2 minutes (20 s in the short form):
// no errors, and the p95 latency of every route reported.
import { afterAll, describe, expect, it } from 'vitest';
import { runJourneys } from '../../bench/load/journeys.js';
import { healthyStack } from './support/faults.js';
import { reportChaos } from './support/report.js';
import { byScale, closeAgents, SCALE } from './support/traffic.js';

const USERS = 10;
const SECONDS = byScale(120, 20);

afterAll(async () => {
  await closeAgents();
});

describe(`R6: load smoke, ${USERS} virtual users for ${SECONDS} s (${SCALE})`, () => {
  it('answers every journey step as expected, with the p95 of every route reported', async () => {
    await healthyStack();
    const result = await runJourneys({ users: USERS, seconds: SECONDS });
    const routes = result.recorder.stats().sort((a, b) => a.route.localeCompare(b.route));
    const slowest = [...routes].sort((a, b) => b.p95 - a.p95)[0];
    reportChaos({
      id: 'R6',
      title: `Load smoke: buyer and farmer journeys, ${USERS} virtual users`,
      method:
        `${USERS} virtual users (6 buyers, 4 farmers; new accounts, each user on its own loopback address) for ${SECONDS} s through the gateway, ` +
        'with 0.3–0.9 s pauses between steps (bench/load/journeys.ts, also `make load`). Buyer: shell page and buyer remote manifest, profile, ' +
        'feed first and next page, two products and their nutrition, every fourth journey a farmer’s contact. Farmer: profile, my products, ' +
        'two photo uploads, a product posted with them, my products, a business-name change, the previous journey’s product deleted (a journey takes ≥ 6 s, ' +
        'inside the per-account upload and post limits). An error is any answer other than the expected one (a product or farmer deleted ' +
        'meanwhile may answer 404).',
      counts: {
        sent: result.requests,
        errors: result.errors.length,
        'buyer journeys': result.journeys.buyer,
        'farmer journeys': result.journeys.farmer,
      },
      observations: [
        `${result.requests} requests in ${result.seconds.toFixed(0)} s (${(result.requests / result.seconds).toFixed(1)} req/s); errors ${result.errors.length}`,
        ...(slowest ? [`slowest route by p95: ${slowest.route} (${slowest.p95} ms)`] : []),
        ...routes.map(
          (r) =>
            `${r.route}: ${r.count} requests, p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, statuses ${JSON.stringify(r.statuses)}`,
        ),
        ...result.errors.slice(0, 10).map((e) => `error: ${e}`),
      ],
      pass: result.errors.length === 0 && result.requests > 0,
    });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.errors).toEqual([]);
  });
});
