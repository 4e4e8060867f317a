// R9 (issue 24): the stock property (support/stock-property.ts, also test/security/stock-promises.test.ts)
// with two replicas of every service behind the gateway (REPLICAS=2), so a product's concurrent accepts,
// declines and cancels land on both orders replicas; at a third of the interleavings orders replica 1 is
// kill -9ed, at two thirds it is started again. Expected: at no check more promised than the stock, every
// request ends in exactly one final state, and no call fails beyond those the killed replica had in hand.
// The scenario switches the local stack to REPLICAS=2 and puts it back (one replica each) afterwards.
import { execFile } from 'node:child_process';
import { linesSince, sizeOf } from './support/log-tail.js';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, SERVICE_PORTS, SERVICES, sigkillByName, STATE, waitReady, type ServiceName } from './support/faults.js';
import { reportChaos } from './support/report.js';
import { StockMarket, type CallRecord } from './support/stock-property.js';
import { byScale, closeAgents, SCALE } from './support/traffic.js';

const RUNS = byScale(240, 30);
const LANES = byScale(10, 6);
const SEED = Number(process.env.STOCK_SEED ?? Date.now() % 1_000_000_000);
const SCALED = { REPLICAS: '2' };
const SINGLE = { REPLICAS: '1' };
/** After the killed process is gone, the gateway may still write into a kept-alive connection to it. */
const STALE_CONNECTION_GRACE_MS = 500;

const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function script(path: string, args: string[], vars: Record<string, string>): Promise<void> {
  await exec('bash', [path, ...args], { cwd: REPO, env: { ...process.env, ...vars }, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
}

/** Replica i of `name` answers /ready on its port + 100·i. */
async function replicaReady(name: ServiceName, i: number, timeoutMs = 180_000): Promise<void> {
  const url = `http://127.0.0.1:${SERVICE_PORTS[name] + 100 * i}/ready`;
  const deadline = Date.now() + timeoutMs;
  while (
    !(await fetch(url).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error(`${name} replica ${i} not ready within ${timeoutMs / 1000} s (${url})`);
    await sleep(250);
  }
}

async function scale(to: Record<string, string>, from: Record<string, string>, replicas: number): Promise<void> {
  await script('infra/local/app.sh', ['stop', ...SERVICES], from);
  await script('infra/local/app.sh', ['start', ...SERVICES], to);
  await script('infra/local/gateway.sh', ['start'], to);
  await Promise.all(SERVICES.flatMap((name) => Array.from({ length: replicas }, (_, i) => replicaReady(name, i))));
  await waitReady('gateway');
}

const logOf = (replica: string) => join(STATE, 'logs', `${replica}.log`);

/** Lines of a log written after byte `from` that contain `text`. */
const countSince = (file: string, from: number, text: string): number => linesSince(file, from).filter((line) => line.includes(text)).length;

let scaled = false;
const market = new StockMarket(3_000);

beforeAll(async () => {
  for (const name of SERVICES) await waitReady(name as ServiceName, 120_000);
  scaled = true; // from here on, whatever fails, afterAll puts the one-replica stack back
  await scale(SCALED, SINGLE, 2);
  await market.prepare(LANES, LANES + 1);
}, 900_000);

afterAll(async () => {
  await market.dispose();
  await closeAgents();
  if (scaled) await scale(SINGLE, SCALED, 1);
}, 900_000);

describe(`R9: the stock property with two replicas of each service, orders replica 1 killed and started again (${SCALE})`, () => {
  it('never promises more than the stock, ends every request in one final state, fails no call beyond the kill', async () => {
    const replicas = ['orders', 'orders-1'];
    const logFrom = new Map(replicas.map((r) => [r, sizeOf(logOf(r))]));
    let kill: { pid: number; at: number; goneAt: number; backAt: number; readyAt: number } | undefined;
    const phases: { at: number; name: string }[] = [];

    // A 5xx or lost answer from the orders routes is the kill's when the call was in hand at it; a 503 while
    // the replica starts again (its keys not loaded yet) is counted apart.
    const excused = (call: CallRecord) => {
      if (!kill || !/\/api\/orders\//.test(call.route)) return false;
      const inHand = call.sentAt <= kill.goneAt + STALE_CONNECTION_GRACE_MS && call.answeredAt >= kill.at;
      const starting =
        call.status === 503 && kill.backAt > 0 && call.sentAt >= kill.backAt && call.sentAt <= (kill.readyAt || Infinity) + 2_000;
      return inHand || starting;
    };
    let restart: Promise<void> | undefined;
    const onInterleaving = (done: number) => {
      if (done === Math.floor(RUNS / 3) && !kill) {
        const killed = sigkillByName('orders-1');
        if (!killed) {
          phases.push({ at: Date.now(), name: 'orders-1 did not run at the kill: NOT killed' });
          return;
        }
        const { pid, at } = killed;
        kill = { pid, at, goneAt: at, backAt: 0, readyAt: 0 };
        phases.push({ at, name: `orders-1 (pid ${pid}) kill -9ed after ${done} interleavings` });
        void killed.gone.then((goneAt) => (kill!.goneAt = goneAt));
      }
      if (done === Math.floor((2 * RUNS) / 3) && kill && !restart) {
        kill.backAt = Date.now();
        phases.push({ at: kill.backAt, name: `orders-1 started again after ${done} interleavings` });
        restart = (async () => {
          await script('infra/local/app.sh', ['start', 'orders-1'], SCALED);
          await replicaReady('orders', 1);
          kill!.readyAt = Date.now();
        })();
      }
    };

    const result = await market.run({ runs: RUNS, lanes: LANES, seed: SEED, excused, onInterleaving, progressEveryMs: 30_000 });
    await restart;
    const changes = Object.fromEntries(replicas.map((r) => [r, countSince(logOf(r), logFrom.get(r)!, '"order request changed"')]));
    const sendsBy = Object.fromEntries(replicas.map((r) => [r, countSince(logOf(r), logFrom.get(r)!, '"order request sent"')]));
    const spread = replicas.every((r) => (changes[r] ?? 0) > 0);
    const inHand = result.excused.filter((c) => c.status !== 503 || !kill || c.sentAt < kill.backAt);
    const starting = result.excused.length - inHand.length;
    const pass = result.failures.length === 0 && result.interleavings === RUNS && spread && kill !== undefined;

    reportChaos({
      id: 'R9',
      title: 'The stock property at two replicas: orders replica 1 killed and started again mid-run',
      method:
        `The local stack switched to REPLICAS=2 (two processes of each service behind the gateway's upstreams; one NATS server). ` +
        `${RUNS} random interleavings (${SCALE} form, fast-check, seed ${SEED}), ${LANES} at once, each on a new product of a farmer no other ` +
        `interleaving uses meanwhile: 3–8 requests from two buyers for a stock of 1–3 heaps, then 2–5 bursts of 1–8 concurrent accepts, ` +
        `declines, fulfilments and cancels (farmer's and buyer's), then every request still open ended by its parties ` +
        `(test/chaos/support/stock-property.ts, the property of test/security/stock-promises.test.ts). After every burst and at the end: ` +
        `the accepted and fulfilled quantities never above the stock, every status a state of the machine and a final one never left; at ` +
        `the end every request in exactly one final state by a legal path, and the histories merged in time never above the stock at any ` +
        `moment. After a third of the interleavings orders replica 1 was kill -9ed, after two thirds started again (infra/local/app.sh). ` +
        `A 5xx or lost answer of an orders route counts as in hand at the kill when it was sent before the process was gone (or within ` +
        `${STALE_CONNECTION_GRACE_MS} ms after) and answered after the kill; any other is a failure. The stack is then put back to one replica each.`,
      counts: {
        interleavings: result.interleavings,
        breaks: result.breaks,
        'other failures': result.otherFailures,
        checks: result.checks,
        steps: result.steps,
        'requests sent': result.sends,
        'changes on orders': changes.orders,
        'changes on orders-1': changes['orders-1'],
        'failed in hand at the kill': inHand.length,
        '503 while orders-1 started again': starting,
      },
      observations: [
        ...phases.map((p) => `${p.name} (at ${new Date(p.at).toISOString()})`),
        ...(kill
          ? [
              `orders-1 gone ${kill.goneAt - kill.at} ms after the signal; ready again ${kill.readyAt ? ((kill.readyAt - kill.backAt) / 1000).toFixed(1) : '—'} s after its start`,
            ]
          : []),
        `${result.interleavings} interleavings in ${result.seconds.toFixed(0)} s (${(result.interleavings / result.seconds).toFixed(2)}/s); ` +
          `people ${result.people.farmers} farmers, ${result.people.buyers} buyers; shrinking runs ${result.shrinkRuns}`,
        `request changes logged by orders ${changes.orders}, orders-1 ${changes['orders-1']}; sends by orders ${sendsBy.orders}, orders-1 ${sendsBy['orders-1']}`,
        ...market.recorder
          .stats()
          .map(
            (r) =>
              `${r.route}: ${r.count} requests, p50 ${r.p50} ms, p95 ${r.p95} ms, max ${r.max} ms, statuses ${JSON.stringify(r.statuses)}`,
          ),
        ...inHand.slice(0, 10).map((c) => `in hand at the kill: ${c.route} ${c.status} ${c.message.slice(0, 120)}`),
        ...result.failures.map(
          (f) =>
            `${f.isBreak ? 'BREAK' : 'failure'} in lane ${f.lane} (seed ${f.seed}, path "${f.path}"): ${f.error}; shrunk counterexample ${f.counterexample}`,
        ),
      ],
      pass,
      notes: [],
    });

    expect(result.failures.map((f) => `${f.isBreak ? 'BREAK' : 'failure'}: ${f.error} — ${f.counterexample}`)).toEqual([]);
    expect(result.interleavings).toBe(RUNS);
    expect(spread, `both orders replicas changed requests (${JSON.stringify(changes)})`).toBe(true);
    expect(kill, 'orders-1 was killed mid-run').toBeDefined();
  });
});
