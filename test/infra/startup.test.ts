// Issue 9, "it starts on any machine" (docs/adr/0016), tried on a second checkout of this
// repository: its own state directory under a mode-700 directory and its own ports, so the stack
// the other tests use is never touched.
import { MongoClient } from 'mongodb';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answers, daemonNames, dispose, listen, privateCheckout, repo, run, type Checkout } from './startup-support.js';

let checkout: Checkout;
beforeAll(async () => {
  checkout = await privateCheckout();
});
afterEach(async () => {
  await run(checkout, 'infra/local/down.sh');
});
afterAll(async () => {
  if (checkout) await dispose(checkout);
});

const secret = (name: string) => {
  const file = join(checkout.state, 'secrets', name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
};

describe('a checkout under a private (mode 700) directory', () => {
  it('starts FerretDB on its own PostgreSQL, keeps a document, and down.sh stops both', async () => {
    expect(lstatSync(checkout.home).mode & 0o777).toBe(0o700);
    const up = await run(checkout, 'infra/local/up.sh', ['ferretdb']);
    expect(up.code, up.output).toBe(0);
    expect(daemonNames(checkout)).toEqual(['ferretdb', 'postgres']);

    // The cluster lives where the postgres user can reach it, linked from the checkout's state.
    const link = join(checkout.state, 'data', 'postgres');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const cluster = readlinkSync(link);
    expect(cluster.startsWith(checkout.home)).toBe(false);
    expect(existsSync(join(cluster, 'PG_VERSION'))).toBe(true);
    expect((await run(checkout, 'infra/local/postgres.sh', ['where'])).output.trim()).toBe(join(cluster, '..'));

    // Credentials when the servers require them (docs/adr/0017), none otherwise.
    const password = secret('mongo-tuber-test-password');
    const auth = password ? `tuber-test:${encodeURIComponent(password)}@` : '';
    const client = new MongoClient(
      `mongodb://${auth}127.0.0.1:${checkout.ports.MONGO_PORT}/startup_test${password ? '?authMechanism=PLAIN' : ''}`,
      {
        serverSelectionTimeoutMS: 10_000,
      },
    );
    try {
      await client.connect();
      const probes = client.db('startup_test').collection<{ _id: string; crop: string }>('probe');
      await probes.insertOne({ _id: 'yam', crop: 'yam' });
      expect(await probes.findOne({ _id: 'yam' })).toEqual({ _id: 'yam', crop: 'yam' });
    } finally {
      await client.close();
    }

    const down = await run(checkout, 'infra/local/down.sh', ['ferretdb']);
    expect(down.code, down.output).toBe(0);
    expect(daemonNames(checkout)).toEqual([]);
    expect(await answers(checkout.ports.POSTGRES_PORT)).toBe(false);
    expect(await answers(checkout.ports.MONGO_PORT)).toBe(false);
  });
});

describe('the gateway of a checkout under a private (mode 700) directory', () => {
  it('buffers a request body larger than its memory buffer (its workers reach their temp files) and passes it on', async () => {
    const up = await run(checkout, 'infra/local/gateway.sh', ['start']);
    expect(up.code, up.output).toBe(0);
    // 100 KB is written to a temp file before nginx proxies it; the catalog is not running here, so
    // the answer is the gateway's "unavailable" one, never a 500 from a temp file it could not open.
    const response = await fetch(`http://127.0.0.1:${checkout.ports.GATEWAY_PORT}/api/catalog/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'y'.repeat(100_000) }),
    });
    await response.text();
    expect(response.status).toBeGreaterThanOrEqual(502);
    expect(response.status).toBeLessThanOrEqual(504);
    const log = readFileSync(join(checkout.state, 'logs', 'gateway.log'), 'utf8');
    expect(log).not.toMatch(/Permission denied/);
  });
});

describe("a clean-up that runs from a trap after a failure (test/run.sh's on EXIT)", () => {
  it('still knows its own daemons and stops them', () => {
    // A bare `return` in a function called from a trap gives the status from before the trap: the
    // identity check said "not this checkout's" and every server was left running.
    const script = [
      'set -euo pipefail',
      `source ${join(repo, 'infra/local/lib.sh')}`,
      'start_daemon trap-probe sleep 300',
      'cleanup() { local code=$?; trap - EXIT; stop_daemon trap-probe; exit $code; }',
      'trap cleanup EXIT',
      'false',
    ].join('\n');
    const result = spawnSync('bash', ['-c', script], { cwd: repo, env: checkout.env, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).not.toMatch(/left it running/);
    expect(daemonNames(checkout)).not.toContain('trap-probe');
  });
});

describe('generated credentials', () => {
  it('always start with a letter, and NATS starts even when an older secret began with a digit', async () => {
    // nats-server reads a password given by variable reference as a config value: "1abc…" is taken
    // for a number and the server refuses its configuration.
    const script = `source ${join(repo, 'infra/local/lib.sh')}; for i in $(seq 1 200); do rm -f "$TUBER_STATE/secrets/probe"; ensure_secret probe; echo; done`;
    const made = spawnSync('bash', ['-c', script], { cwd: repo, env: checkout.env, encoding: 'utf8', timeout: 30_000 });
    const secrets = made.stdout.trim().split('\n');
    expect(secrets).toHaveLength(200);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z][A-Za-z0-9]{20,}$/);

    mkdirSync(join(checkout.state, 'secrets'), { recursive: true });
    writeFileSync(join(checkout.state, 'secrets', 'nats-catalog-password'), '1digitFirstPassword0000000000000');
    const up = await run(checkout, 'infra/local/nats.sh', ['start']);
    expect(up.code, up.output).toBe(0);
    expect(readFileSync(join(checkout.state, 'secrets', 'nats-catalog-password'), 'utf8')).toMatch(/^[A-Za-z]/);
  });
});

describe('a start that fails', () => {
  it('stops what it launched, leaves what already ran, and names the failing server with the end of its log', async () => {
    const before = await run(checkout, 'infra/local/up.sh', ['nats']);
    expect(before.code, before.output).toBe(0);
    const natsPid = readFileSync(join(checkout.state, 'pids', 'nats.pid'), 'utf8').trim();

    // Redis refuses to start on a data file that is not one of its own.
    mkdirSync(join(checkout.state, 'data', 'redis'), { recursive: true });
    writeFileSync(join(checkout.state, 'data', 'redis', 'dump.rdb'), 'not a redis database');
    try {
      const up = await run(checkout, 'infra/local/up.sh', ['nats', 'redis', 'mailpit']);
      expect(up.code).toBe(1);
      expect(up.output).toContain('redis failed to start');
      expect(up.output).toMatch(/Wrong signature|Fatal error loading the DB/); // from redis's own log
      expect(up.output).toContain('could not start: redis');
      const stopped =
        up.output
          .match(/stopping what this start launched: (.*)/)?.[1]
          .trim()
          .split(/\s+/) ?? [];
      expect(stopped, up.output).toContain('redis');
      expect(stopped, up.output).not.toContain('nats');
    } finally {
      rmSync(join(checkout.state, 'data', 'redis', 'dump.rdb'), { force: true });
    }
    // nats ran before: still running, same process. Nothing else of this checkout is left.
    expect(daemonNames(checkout)).toEqual(['nats']);
    expect(readFileSync(join(checkout.state, 'pids', 'nats.pid'), 'utf8').trim()).toBe(natsPid);
    expect(await answers(checkout.ports.MAILPIT_SMTP_PORT)).toBe(false);
    expect(await answers(checkout.ports.REDIS_PORT)).toBe(false);
  });
});

describe('a port held by another program', () => {
  it('fails the start, naming the holder (pid and command), and never uses it', async () => {
    const holder = await listen(checkout.ports.REDIS_PORT);
    try {
      const up = await run(checkout, 'infra/local/up.sh', ['redis', 'mailpit']);
      expect(up.code).toBe(1);
      expect(up.output).toContain(`REDIS_PORT ${checkout.ports.REDIS_PORT} is held by pid ${process.pid} (`);
      expect(up.output).toContain('could not start: redis');
      expect(daemonNames(checkout)).toEqual([]);
      expect(await answers(checkout.ports.REDIS_PORT)).toBe(true); // the holder was left alone

      const status = await run(checkout, 'infra/local/status.sh', ['redis']);
      expect(status.code).toBe(1);
      expect(status.output).toMatch(new RegExp(`redis\\s+stopped`));
      expect(status.output).toContain(`REDIS_PORT ${checkout.ports.REDIS_PORT} is held by pid ${process.pid}`);
    } finally {
      holder.close();
    }
  });

  it('is neither counted as running nor stopped when a pid file names it', async () => {
    // Another program (here a child node process) whose pid lands in this checkout's pid file,
    // as after a copied .run directory or a reused pid.
    const other = spawn(process.execPath, ['-e', `require('net').createServer().listen(${checkout.ports.NATS_PORT}, '127.0.0.1')`], {
      stdio: 'ignore',
    });
    try {
      for (let i = 0; i < 50 && !(await answers(checkout.ports.NATS_PORT)); i++) await new Promise((r) => setTimeout(r, 100));
      writeFileSync(join(checkout.state, 'pids', 'nats.pid'), `${other.pid}\n`);
      const status = await run(checkout, 'infra/local/status.sh', ['nats']);
      expect(status.code).toBe(1);
      expect(status.output).toMatch(/nats\s+stopped/);

      const down = await run(checkout, 'infra/local/down.sh', ['nats']);
      expect(down.output).toContain(`pid file named pid ${other.pid}`);
      expect(other.exitCode).toBeNull();
      expect(() => process.kill(other.pid!, 0)).not.toThrow();
      expect(existsSync(join(checkout.state, 'pids', 'nats.pid'))).toBe(false);

      writeFileSync(join(checkout.state, 'pids', 'nats.pid'), `${other.pid}\n`);
      const up = await run(checkout, 'infra/local/up.sh', ['nats']);
      expect(up.code).toBe(1);
      expect(up.output).toContain(`NATS_PORT ${checkout.ports.NATS_PORT} is held by pid ${other.pid} (`);
      expect(() => process.kill(other.pid!, 0)).not.toThrow();
    } finally {
      other.kill();
    }
  });
});

describe('test/run.sh', () => {
  it('on a failed start stops everything it launched and nothing that ran before', async () => {
    const before = await run(checkout, 'infra/local/up.sh', ['nats']);
    expect(before.code, before.output).toBe(0);
    const holder = await listen(checkout.ports.GATEWAY_PORT);
    try {
      const result = await run(checkout, 'test/run.sh', [], { TUBER_INFRA: 'local' });
      expect(result.code).not.toBe(0);
      expect(result.output).toContain(`GATEWAY_PORT ${checkout.ports.GATEWAY_PORT} is held by pid ${process.pid}`);
      expect(result.output).toMatch(/could not start: .*gateway/);
      expect(result.output).not.toContain('== vitest project'); // no test ran on a half-started stack
    } finally {
      holder.close();
    }
    expect(daemonNames(checkout)).toEqual(['nats']);
    for (const name of [
      'MONGO_PORT',
      'POSTGRES_PORT',
      'REDIS_PORT',
      'MINIO_PORT',
      'MAILPIT_SMTP_PORT',
      'KEYCLOAK_PORT',
      'KEYCLOAK_MGMT_PORT',
    ]) {
      expect(await answers(checkout.ports[name]), name).toBe(false);
    }
  }, 240_000);
});

describe('app.sh', () => {
  it('stops the processes a failed start launched', async () => {
    const holder = await listen(checkout.ports.CATALOG_PORT);
    try {
      const start = await run(checkout, 'infra/local/app.sh', ['start', 'shell', 'catalog']);
      expect(start.code).toBe(1);
      expect(start.output).toContain(`CATALOG_PORT ${checkout.ports.CATALOG_PORT} is held by pid ${process.pid}`);
      expect(start.output).toMatch(/stopping what this start launched: shell/);
      expect(daemonNames(checkout)).toEqual([]);
      expect(await answers(checkout.ports.SHELL_PORT)).toBe(false);
    } finally {
      holder.close();
    }
  });
});

describe('make doctor', () => {
  it('shows what is installed, cached and running (and whose), and fails naming what is missing with a hint', async () => {
    const before = await run(checkout, 'infra/local/up.sh', ['nats']);
    expect(before.code, before.output).toBe(0);
    const natsPid = readFileSync(join(checkout.state, 'pids', 'nats.pid'), 'utf8').trim();
    // This machine's programs, but for nginx.
    const bin = join(checkout.home, 'bin');
    mkdirSync(bin, { recursive: true });
    for (const dir of (process.env.PATH ?? '').split(':').filter((d) => d && existsSync(d))) {
      for (const program of readdirSync(dir)) {
        if (program !== 'nginx' && !existsSync(join(bin, program))) symlinkSync(join(dir, program), join(bin, program));
      }
    }
    const holder = await listen(checkout.ports.REDIS_PORT);
    try {
      const doctor = await run(checkout, 'infra/local/doctor.sh', [], { PATH: bin });
      expect(doctor.code).toBe(1);
      expect(doctor.output).toMatch(/MISSING\s+nginx\s+make install \(apt-get install nginx\)/);
      expect(doctor.output).toMatch(/ok\s+redis-server\s+Redis server v=/);
      expect(doctor.output).toMatch(/ok\s+keycloak\s+\S+keycloak-[\d.]+ \(built\)/);
      expect(doctor.output).toMatch(
        new RegExp(`running\\s+nats\\s+this checkout's, pid ${natsPid}; NATS_PORT ${checkout.ports.NATS_PORT}`),
      );
      expect(doctor.output).toMatch(
        new RegExp(`FOREIGN\\s+redis\\s+REDIS_PORT ${checkout.ports.REDIS_PORT} held by pid ${process.pid} \\(`),
      );
      expect(doctor.output).toMatch(new RegExp(`stopped\\s+mailpit\\s+MAILPIT_SMTP_PORT ${checkout.ports.MAILPIT_SMTP_PORT}`));
      const fix = doctor.output.slice(doctor.output.indexOf('To fix'));
      expect(fix).toContain('- nginx: make install');
      expect(fix).toContain(`- redis: REDIS_PORT ${checkout.ports.REDIS_PORT} held by pid ${process.pid}`);
    } finally {
      holder.close();
    }
  });
});
