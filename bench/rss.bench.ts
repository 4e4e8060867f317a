// RSS: the resident memory of every process of the running stack, idle and under load. Each
// process is found by its pid file under $TUBER_STATE/pids (infra/local/lib.sh, app.sh) and counted
// with all its descendants (PostgreSQL's backends, nginx's workers, a service's node under npm),
// from VmRSS in /proc/<pid>/status. Under load: browsing traffic through the gateway (feed pages,
// product details, nutrition lookups as a signed-in buyer, at the gateway's per-client API rate)
// together with the front-end pages and remote entries, sampled every second; the peak counts.
import autocannon from 'autocannon';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLIC_URL } from '../test/support/env.js';
import { deleteAccount, signedInAccount } from '../test/support/accounts.js';
import { report } from './support/report.js';

const SECONDS = Number(process.env.RSS_LOAD_SECONDS ?? 20);
const API_RATE = Number(process.env.RSS_API_RATE ?? 25);
const repo = fileURLToPath(new URL('..', import.meta.url));
const state = process.env.TUBER_STATE
  ? isAbsolute(process.env.TUBER_STATE)
    ? process.env.TUBER_STATE
    : join(repo, process.env.TUBER_STATE)
  : join(repo, '.run');

const PROCESSES = [
  ['auth', 'service'],
  ['profile', 'service'],
  ['catalog', 'service'],
  ['media', 'service'],
  ['nutrition', 'service'],
  ['shell', 'front-end server'],
  ['landing', 'front-end server'],
  ['buyer', 'front-end server'],
  ['farmer', 'front-end server'],
  ['moderation-ui', 'front-end server'],
  ['ferretdb', 'database (MongoDB wire)'],
  ['postgres', "database (FerretDB's backend)"],
  ['nats', 'event bus'],
  ['redis', 'cache'],
  ['minio', 'object store'],
  ['keycloak', 'identity'],
  ['mailpit', 'mail (development)'],
  ['gateway', 'nginx'],
] as const;

/** Parent pid of every live process. */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  return children;
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** RSS of each named process with its descendants, in KB (undefined: not running). */
function sample(): Map<string, { kb: number; processes: number }> {
  const children = parents();
  const out = new Map<string, { kb: number; processes: number }>();
  for (const [name] of PROCESSES) {
    const file = join(state, 'pids', `${name}.pid`);
    if (!existsSync(file)) continue;
    const root = Number(readFileSync(file, 'utf8').trim());
    if (!existsSync(`/proc/${root}`)) continue;
    let kb = 0;
    let processes = 0;
    const queue = [root];
    while (queue.length) {
      const pid = queue.pop()!;
      kb += rssKb(pid);
      processes += 1;
      queue.push(...(children.get(pid) ?? []));
    }
    out.set(name, { kb, processes });
  }
  return out;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

const idle = sample();
// A signed-in buyer when Keycloak answers; otherwise the public routes only (said in the notes).
const buyer = await signedInAccount({ role: 'buyer' }).catch((err: unknown) => {
  console.error(`no signed-in buyer (${(err as Error).message}): loading public routes only`);
  return undefined;
});
const peak = new Map([...idle].map(([name, s]) => [name, { ...s }]));
const timer = setInterval(() => {
  for (const [name, s] of sample()) {
    const p = peak.get(name);
    if (!p || s.kb > p.kb) peak.set(name, s);
  }
}, 1000);

let load: { requests: number; errors: number; non2xx: number; rps: number };
try {
  const headers: Record<string, string> = buyer ? { authorization: `Bearer ${buyer.accessToken}` } : {};
  const feed = (await (await fetch(`${PUBLIC_URL}/api/catalog/products?limit=12`, { headers })).json()) as {
    items?: { product_id: string }[];
  };
  const ids = (feed.items ?? []).map((p) => p.product_id);
  const tubers = ['yam', 'cassava', 'potato', 'sweet%20potato', 'garlic', 'ginger'];
  const [api, pages] = await Promise.all([
    autocannon({
      url: PUBLIC_URL,
      connections: 8,
      overallRate: API_RATE,
      duration: SECONDS,
      requests: [
        { method: 'GET', path: '/api/catalog/products?limit=12', headers },
        ...ids.slice(0, 5).map((id) => ({ method: 'GET' as const, path: `/api/catalog/products/${id}`, headers })),
        ...tubers.map((t) => ({ method: 'GET' as const, path: `/api/nutrition/${t}` })),
        { method: 'GET', path: '/api/profile/me', headers },
        { method: 'GET', path: '/auth/realms/tuber/.well-known/openid-configuration' },
      ],
    }),
    autocannon({
      url: PUBLIC_URL,
      connections: 8,
      duration: SECONDS,
      requests: [
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/dashboard/buyer' },
        { method: 'GET', path: '/mf/landing/remoteEntry.js' },
        { method: 'GET', path: '/mf/buyer/remoteEntry.js' },
        { method: 'GET', path: '/mf/farmer/remoteEntry.js' },
      ],
    }),
  ]);
  load = {
    requests: api.requests.total + pages.requests.total,
    errors: api.errors + pages.errors,
    non2xx: api.non2xx + pages.non2xx,
    rps: api.requests.average + pages.requests.average,
  };
} finally {
  clearInterval(timer);
  if (buyer) await deleteAccount(buyer.id);
}

const total = (m: Map<string, { kb: number }>) => [...m.values()].reduce((sum, s) => sum + s.kb, 0);
report({
  id: 'RSS',
  title: 'Resident memory of every process, idle and under load',
  method:
    `VmRSS from /proc/<pid>/status of each process named by $TUBER_STATE/pids/<name>.pid, summed with its descendants ` +
    `(PostgreSQL backends, nginx workers, node under npm). Idle: one sample before the load. Under load: the peak of ` +
    `one-second samples during ${SECONDS} s of traffic through the gateway: API browsing as a signed-in buyer at ` +
    `${API_RATE} req/s (feed, product details, nutrition, /me, OIDC discovery; the gateway allows 30 req/s per client) ` +
    `and the front-end pages and remote entries as fast as 8 connections go.`,
  rows: [
    ...PROCESSES.map(([name, role]) => {
      const i = idle.get(name);
      const p = peak.get(name);
      return {
        label: `${name} (${role}${i && i.processes > 1 ? `, ${i.processes} processes` : ''})`,
        value: p ? `${mb(p.kb)} under load` : 'not running',
        baseline: i ? `${mb(i.kb)} idle` : 'not running',
        ...(i && p ? { ratio: p.kb / i.kb } : {}),
      };
    }),
    {
      label: 'all processes',
      value: `${mb(total(peak))} under load`,
      baseline: `${mb(total(idle))} idle`,
      ratio: total(peak) / total(idle),
    },
  ],
  notes: [
    `load: ${load.requests} requests (${load.rps.toFixed(0)} req/s), ${load.errors} errors, ${load.non2xx} non-2xx answers` +
      (buyer ? '' : '; Keycloak did not answer, so the API load had no token (signed-in routes answered 401)'),
    "RSS counts shared pages once per process: PostgreSQL's shared buffers appear in each backend, so its total overstates what it takes.",
    'The sum of peaks is an upper bound: the processes did not all peak in the same second.',
  ],
});
