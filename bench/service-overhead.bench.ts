// P1 and P5: what the service kit and its token check cost per request.
//   P1: the kit's createServiceApp (JWT off) answering a hello route, against a bare `node:http`
//       server answering the same JSON, in the same run.
//   P5: a route behind the kit's `authenticate` (a real Keycloak access token, the realm's keys
//       warm) against the same route without auth on the same server; and the number of key
//       fetches to Keycloak's certs endpoint after warm-up (RealmKeys.fetches), which must stay 0.
// Each server runs in a child process of its own (one core for it, one for autocannon here), with
// the log level the services run with (LOG_LEVEL, default info) and its log written to a file, as
// infra/local/app.sh does. Rounds alternate between the servers and the median ratio counts, so a
// noisy neighbour on the shared machine hits both sides alike.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { createServiceApp } from '../services/kit/src/app.js';
import { auth } from '../services/kit/src/plugins/auth.js';
import { connectRedis } from '../services/kit/src/stores.js';
import { useSessionRevocation } from '../services/kit/src/wiring.js';
import { redisUrl } from '../test/support/credentials.js';
import { PUBLIC_URL } from '../test/support/env.js';
import { report } from './support/report.js';

// Short alternating rounds: the shared machine's load changes from one second to the next.
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 16;
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const KEYCLOAK_URL = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`;

type Kind = 'bare' | 'kit' | 'kit-auth' | 'kit-auth-revocation';
type ToParent = { port: number } | { fetches: number };

// ---- child: one server ---------------------------------------------------------------------------
async function serve(kind: Kind): Promise<void> {
  const hello = { hello: 'world' };
  if (kind === 'bare') {
    const body = JSON.stringify(hello);
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
    server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port } satisfies ToParent));
    return;
  }
  const app = await createServiceApp({ name: 'bench', logLevel: LOG_LEVEL });
  const schema = { response: { 200: Type.Object({ hello: Type.String() }) } };
  app.get('/hello', { schema }, async () => hello);
  if (kind === 'kit-auth' || kind === 'kit-auth-revocation') {
    // With revocation (issue 24): every authenticated request also asks Redis whether its sign-in has ended.
    if (kind === 'kit-auth-revocation') useSessionRevocation(app, await connectRedis(redisUrl()));
    await app.register(auth, {
      keycloakUrl: KEYCLOAK_URL,
      realm: 'tuber',
      issuer: `${PUBLIC_URL}/auth/realms/tuber`,
      audience: 'tuber-api',
    });
    app.get('/hello-auth', { onRequest: app.authenticate, schema }, async () => hello);
    process.on('message', () => process.send!({ fetches: app.realmKeys.fetches } satisfies ToParent));
  }
  // listen() makes the app ready, which warms the realm's keys (one fetch).
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as AddressInfo).port } satisfies ToParent);
}

// ---- parent: drive and compare --------------------------------------------------------------------
interface Server {
  url: string;
  child: ChildProcess;
  ask: () => Promise<number>;
}

async function start(kind: Kind, logFile: string, logLevel = LOG_LEVEL): Promise<Server> {
  const log = openSync(logFile, 'a');
  const child = fork(fileURLToPath(import.meta.url), ['serve', kind], {
    stdio: ['ignore', log, log, 'ipc'],
    env: { ...process.env, LOG_LEVEL: logLevel },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: ToParent) => ('port' in m ? resolve(m.port) : reject(new Error('unexpected message'))));
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}); see ${logFile}`)));
  });
  const ask = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m: ToParent) => resolve('fetches' in m ? m.fetches : Number.NaN));
      child.send('fetches');
    });
  return { url: `http://127.0.0.1:${port}`, child, ask };
}

async function rps(url: string, headers: Record<string, string> = {}, duration = DURATION_S) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  const errors = result.errors + result.non2xx + result.timeouts;
  if (errors > 0) throw new Error(`${url}: ${errors} errors or non-2xx answers (${result.non2xx} non-2xx)`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => `${Math.round(n)} req/s`;

/** Alternating rounds of a against b; the median of the per-round ratios (b ÷ a). */
async function compare(a: () => Promise<{ rps: number; p99: number }>, b: () => Promise<{ rps: number; p99: number }>) {
  await a();
  await b(); // warm-up of both, not counted (JIT, connection set-up)
  const rounds: { a: number; b: number; aP99: number; bP99: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const ra = await a();
    const rb = await b();
    rounds.push({ a: ra.rps, b: rb.rps, aP99: ra.p99, bP99: rb.p99 });
  }
  const ratio = median(rounds.map((r) => r.b / r.a));
  return { ratio, a: median(rounds.map((r) => r.a)), b: median(rounds.map((r) => r.b)), rounds };
}

async function main() {
  const tmp = join(fileURLToPath(new URL('..', import.meta.url)), '.run', 'tmp', 'bench-service-overhead');
  mkdirSync(tmp, { recursive: true });
  const { deleteAccount, signedInAccount } = await import('../test/support/accounts.js');
  const method =
    `autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per measurement after a warm-up of each side, ` +
    `${ROUNDS} alternating rounds, median of the per-round ratios; each server in its own child process, ` +
    `LOG_LEVEL=${LOG_LEVEL} with its log written to a file (as the services run)`;

  // P1
  const bare = await start('bare', join(tmp, 'bare.log'));
  const kit = await start('kit', join(tmp, 'kit.log'));
  try {
    const p1 = await compare(
      () => rps(`${bare.url}/`),
      () => rps(`${kit.url}/hello`),
    );
    // Where the difference goes: the same kit with its request log off (warn).
    const quiet = await start('kit', join(tmp, 'kit-warn.log'), 'warn');
    const withoutLog = await compare(
      () => rps(`${bare.url}/`),
      () => rps(`${quiet.url}/hello`),
    ).finally(() => quiet.child.kill());
    report({
      id: 'P1',
      title: 'Service bootstrap (kit, JWT off): hello route',
      method: `${method}. Baseline: a bare node:http server answering the same JSON.`,
      rows: [
        {
          label: 'kit hello route vs bare node:http',
          value: fmt(p1.b),
          baseline: fmt(p1.a),
          ratio: p1.ratio,
          target: '≥ 0.80× req/s',
          pass: p1.ratio >= 0.8,
        },
        {
          label: 'the same with the request log off (LOG_LEVEL=warn), for comparison',
          value: fmt(withoutLog.b),
          baseline: fmt(withoutLog.a),
          ratio: withoutLog.ratio,
        },
      ],
      notes: [
        `per round (baseline / kit req/s): ${p1.rounds.map((r) => `${Math.round(r.a)} / ${Math.round(r.b)}`).join(', ')}`,
        `p99 latency in the last round: baseline ${p1.rounds.at(-1)!.aP99} ms, kit ${p1.rounds.at(-1)!.bP99} ms`,
        `Profile: with its request log off the kit measured ${withoutLog.ratio.toFixed(2)}× the bare server in this run, against ` +
          `${p1.ratio.toFixed(2)}× with it; the rest is Fastify's routing, schema serialisation and the kit's hooks. The request ` +
          "log was two lines per request (Fastify's own) before this benchmark and is one now; it is written synchronously, so " +
          'a crash loses nothing, and it is how the services are operated, so it stays on.',
      ],
    });
  } finally {
    bare.child.kill();
    kit.child.kill();
  }

  // P5
  const buyer = await signedInAccount({ role: 'buyer' });
  const server = await start('kit-auth', join(tmp, 'kit-auth.log'));
  try {
    const bearer = { authorization: `Bearer ${buyer.accessToken}` };
    await rps(`${server.url}/hello-auth`, bearer, 1); // warm: the token's key is known from here on
    const afterWarmUp = await server.ask();
    const p5 = await compare(
      () => rps(`${server.url}/hello`, bearer),
      () => rps(`${server.url}/hello-auth`, bearer),
    );
    const fetchesAfterWarmUp = (await server.ask()) - afterWarmUp;
    // The same, with the ended-sign-in check (one Redis EXISTS per request), against the same baseline.
    const revoking = await start('kit-auth-revocation', join(tmp, 'kit-auth-revocation.log'));
    let p5r: Awaited<ReturnType<typeof compare>>;
    try {
      await rps(`${revoking.url}/hello-auth`, bearer, 1);
      p5r = await compare(
        () => rps(`${revoking.url}/hello`, bearer),
        () => rps(`${revoking.url}/hello-auth`, bearer),
      );
    } finally {
      revoking.child.kill();
    }
    report({
      id: 'P5',
      title: 'JWT-protected route with the JWKS warm',
      method:
        `${method}. One server with the kit's auth plugin against the real Keycloak; a buyer's access token ` +
        `(signed in through the real PKCE flow); baseline: the same hello route on the same server without auth. ` +
        `Key fetches counted by the kit's RealmKeys.fetches (every request to the realm's certs endpoint).`,
      rows: [
        {
          label: 'authenticated hello vs the same route without auth',
          value: fmt(p5.b),
          baseline: fmt(p5.a),
          ratio: p5.ratio,
          target: '≥ 0.85× req/s',
          pass: p5.ratio >= 0.85,
        },
        {
          label: 'authenticated hello with the ended-sign-in check (Redis) vs the same route without auth',
          value: fmt(p5r.b),
          baseline: fmt(p5r.a),
          ratio: p5r.ratio,
          target: '≥ 0.85× req/s',
          pass: p5r.ratio >= 0.85,
        },
        {
          label: 'key fetches to Keycloak after warm-up',
          value: `${fetchesAfterWarmUp} (${afterWarmUp} during start and warm-up)`,
          target: '0',
          pass: fetchesAfterWarmUp === 0,
        },
      ],
      notes: [
        `per round (no auth / auth req/s): ${p5.rounds.map((r) => `${Math.round(r.a)} / ${Math.round(r.b)}`).join(', ')}`,
        `with the ended-sign-in check, per round: ${p5r.rounds.map((r) => `${Math.round(r.a)} / ${Math.round(r.b)}`).join(', ')}`,
      ],
    });
  } finally {
    server.child.kill();
    await deleteAccount(buyer.id);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] as Kind);
} else {
  await main();
}
