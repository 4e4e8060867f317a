// What the service kit costs per request: a bare Fastify route (the baseline, same run) against
// the kit's /health, and the nutrition lookup served from the Redis cache. Prints ratios.
import Fastify from 'fastify';
import autocannon from 'autocannon';
import type { AddressInfo } from 'node:net';
import { createServiceApp, loadConfig } from '@tuber/kit';
import { buildApp as buildNutrition } from '../services/nutrition/src/app.js';
import { NutritionConfig } from '../services/nutrition/src/config.js';
import { redisUrl } from '../test/support/credentials.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);

async function measure(label: string, url: string) {
  await autocannon({ url, connections: 16, duration: 1 }); // warm-up, not counted
  const result = await autocannon({ url, connections: 16, duration: DURATION_S });
  return { label, rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function listen(app: { listen: (o: { port: number; host: string }) => Promise<string>; server: { address(): unknown } }) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const bare = Fastify({ logger: false });
bare.get('/health', async () => ({ status: 'ok' }));
const kit = await createServiceApp({ name: 'bench', logLevel: 'silent' });
const nutrition = await buildNutrition(loadConfig(NutritionConfig, { ...process.env, LOG_LEVEL: 'silent', REDIS_URL: redisUrl('nutrition') }));

const results = [
  await measure('bare fastify /health (baseline)', `${await listen(bare)}/health`),
  await measure('kit /health', `${await listen(kit)}/health`),
  await measure('nutrition /api/nutrition/yam (redis hit)', `${await listen(nutrition)}/api/nutrition/yam`),
];
const baseline = results[0]!.rps;
console.log(`\nservice overhead (${DURATION_S}s each, 16 connections)`);
for (const r of results) {
  console.log(`${r.label.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ratio ${(r.rps / baseline).toFixed(2)}  errors ${r.errors}`);
}
await Promise.all([bare.close(), kit.close(), nutrition.close()]);
