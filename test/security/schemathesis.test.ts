// Schemathesis (property-based API fuzzing from the OpenAPI documents) against every service through
// the gateway, once with a buyer's token and once with a farmer's, all checks on: no 5xx, every
// status a route answers is declared, every answer matches its schema, and the schema is as strict
// as the code. SCHEMATHESIS_MODE=bounded (default; `make test`) keeps it to a few minutes;
// SCHEMATHESIS_MODE=full (`make security`) runs every phase with the default example count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deleteAccount } from '../support/accounts.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { operations } from './support/openapi.js';
import { PUBLIC_URL, ROOT, SERVICES } from './support/stack.js';
import { ARTIFACTS, counts } from './support/tally.js';

const FULL = process.env.SCHEMATHESIS_MODE === 'full';
const ops = await operations();
const MODE = FULL
  ? { maxExamples: 100, phases: 'examples,coverage,fuzzing,stateful', runTimeoutS: 240 }
  : { maxExamples: Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 8), phases: 'examples,coverage,fuzzing', runTimeoutS: 75 };
/**
 * A service whose routes are all public does not depend on the five-minute token, and the gateway
 * paces its form posts to one a second: the full run gives it longer.
 */
const publicOnly = new Set(
  SERVICES.filter((service) => {
    const mine = ops.filter((op) => op.service === service);
    return mine.length > 0 && mine.every((op) => !op.secured);
  }),
);
const timeBound = (service: string) => (FULL && publicOnly.has(service) ? 1200 : MODE.runTimeoutS);
/** Stays under the gateway's per-address limit on /api/ so its 429s do not drown the findings. */
const RATE = process.env.SCHEMATHESIS_RATE ?? '15/s';
const CONFIG = join(ROOT, 'test', 'security', 'schemathesis.toml');
const OUT = join(ARTIFACTS, 'schemathesis');

interface Report {
  exit_code: number;
  stop_reason: string;
  operations: { total: number; selected: number; tested: number; errored: number; skipped: number } | null;
  test_cases: { generated: number; with_failures: number; unique_failures: number; errored: number };
  failures: { type: string; code: string; title: string; count: number; operations: string[] }[];
  errors: { title: string; count: number }[];
}

interface Run {
  service: string;
  who: string;
  report?: Report;
  output: string;
  timedOut: boolean;
}

function schemathesis(args: string[], timeoutS: number): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(ROOT, 'infra/local/schemathesis.sh'), ...args], {
      cwd: OUT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // SIGINT first: Schemathesis then still writes its reports.
      process.kill(-child.pid!, 'SIGINT');
      setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 10_000).unref();
    }, timeoutS * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

/** Accounts that sign-up cases made (found in the run's HAR), to delete afterwards. */
function signedUpEmails(harFile: string): string[] {
  if (!existsSync(harFile)) return [];
  const har = JSON.parse(readFileSync(harFile, 'utf8')) as {
    log: { entries: { request: { url: string; method: string; postData?: { text?: string } }; response: { status: number } }[] };
  };
  const emails: string[] = [];
  for (const entry of har.log.entries) {
    if (entry.request.method !== 'POST' || !/\/api\/auth\/signup\//.test(entry.request.url) || entry.response.status !== 201) continue;
    try {
      const email = (JSON.parse(entry.request.postData?.text ?? '{}') as { email?: string }).email;
      if (email) emails.push(email.trim().toLowerCase());
    } catch {
      /* not JSON */
    }
  }
  return emails;
}

async function removeAccounts(emails: string[]) {
  if (emails.length === 0) return;
  const { default: KcAdminClient } = await import('@keycloak/keycloak-admin-client');
  const kc = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
  await kc.auth({ grantType: 'client_credentials', clientId: 'tuber-auth', clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '' });
  for (const email of emails) {
    for (const user of await kc.users.find({ email, exact: true })) if (user.id) await deleteAccount(user.id);
  }
}

let buyer: Actor;
let farmer: Actor;
const runs: Run[] = [];

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  // Installs Schemathesis into the cached virtualenv on the first run (a few seconds from then on).
  const install = await schemathesis([], 300);
  expect(install.code, install.output).toBe(0);
  buyer = await makeActor('schemathesis buyer', { role: 'buyer' });
  farmer = await makeActor('schemathesis farmer', {
    role: 'farmer',
    businessName: 'Fuzz Farms',
    location: 'Ibadan',
    tuber: ['yam', 'cassava'],
  });
}, 400_000);

afterAll(async () => {
  await disposeCast({ buyer, farmer });
});

describe(`Schemathesis --checks all through the gateway (${FULL ? 'full' : 'bounded'} run)`, () => {
  it.each(SERVICES.flatMap((service) => [[service, 'buyer'] as const, [service, 'farmer'] as const]))(
    '%s as a %s: no 5xx, no undeclared status, no schema mismatch',
    async (service, who) => {
      const actor = who === 'buyer' ? buyer : farmer;
      // A token that outlives the run (access tokens live five minutes; a run may take its whole time bound).
      const token = await actor.token((timeBound(service) + 30) * 1000);
      const name = `${service}-${who}`;
      const reportFile = join(OUT, `${name}.json`);
      const harFile = join(OUT, `${name}.har`);
      const args = [
        ...(existsSync(CONFIG) ? ['--config-file', CONFIG] : []),
        'run',
        `${PUBLIC_URL}/api/${service}/openapi.json`,
        '--url',
        PUBLIC_URL,
        '--checks',
        'all',
        '--header',
        `Authorization: Bearer ${token}`,
        '--max-examples',
        String(MODE.maxExamples),
        '--phases',
        MODE.phases,
        '--workers',
        '1',
        '--rate-limit',
        RATE,
        '--request-timeout',
        '15',
        '--suppress-health-check',
        'all',
        '--generation-database',
        'none',
        '--no-color',
        '--report',
        'json,har,junit',
        '--report-json-path',
        reportFile,
        '--report-har-path',
        harFile,
        '--report-junit-path',
        join(OUT, `${name}.xml`),
        ...(FULL ? ['--continue-on-failure'] : []),
      ];
      const started = Date.now();
      const result = await schemathesis(args, timeBound(service));
      await removeAccounts(signedUpEmails(harFile));
      const report = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Report) : undefined;
      runs.push({ service, who, report, output: result.output, timedOut: result.timedOut });
      expect(report, `Schemathesis wrote no report:\n${result.output.slice(-3000)}`).toBeDefined();
      const r = report!;
      const serverErrors = r.failures.filter((f) => f.type === 'ServerError').reduce((n, f) => n + f.count, 0);

      // Reported, not gating: the answer to a method no route declares (nginx's own 405 for TRACE
      // without an Allow header; Fastify's 400 or 404 for others). It never reaches a route and is
      // not a schema mismatch.
      const reportedOnly = (f: Report['failures'][number]) => f.code === 'ST204';
      for (const f of r.failures.filter(reportedOnly))
        counts.notes.push(`schemathesis ${name}: reported, not gating: ${f.code} ${f.title} ×${f.count} (undeclared methods)`);
      const described = r.failures
        .filter((f) => !reportedOnly(f))
        .map((f) => `${f.code} ${f.title} ×${f.count} in ${f.operations.join(', ')}`);
      const failures = r.failures.filter((f) => !reportedOnly(f)).reduce((n, f) => n + f.count, 0);
      counts.schemathesis.runs += 1;
      counts.schemathesis.operations += r.operations?.tested ?? 0;
      counts.schemathesis.cases += r.test_cases.generated;
      counts.schemathesis.failures += failures;
      counts.schemathesis.serverErrors += serverErrors;
      counts.notes.push(
        `schemathesis ${name}: ${r.operations?.tested ?? 0} operations, ${r.test_cases.generated} cases, ${failures} failures (${serverErrors} 5xx) in ${Math.round((Date.now() - started) / 1000)} s${result.timedOut ? ' (time bound reached)' : ''}`,
      );
      expect(r.operations?.tested ?? 0, `operations tested:\n${result.output.slice(-3000)}`).toBeGreaterThan(0);
      expect(r.errors, `errors while testing:\n${result.output.slice(-3000)}`).toEqual([]);
      expect(described, `failures: ${described.join('; ')} (see ${OUT}/${name}.*):\n${result.output.slice(-6000)}`).toEqual([]);
      expect(serverErrors).toBe(0);
    },
    (Math.max(...SERVICES.map(timeBound)) + 60) * 1000,
  );

  it('the runs together covered every operation of every service', () => {
    const missing = SERVICES.filter((service) => !runs.some((run) => run.service === service && (run.report?.operations?.tested ?? 0) > 0));
    expect(missing).toEqual([]);
  });
});
