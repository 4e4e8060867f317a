// A second checkout for the startup tests (docs/adr/0016): the repository's own scripts, but its
// own state directory inside a fresh mode-700 directory (as under a private home) and its own
// free port for every *_PORT of .env.example, so it never touches the stack the other tests use.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../..', import.meta.url));

export interface Checkout {
  /** The mode-700 directory standing for a private home. */
  home: string;
  /** $TUBER_STATE of this checkout. */
  state: string;
  ports: Record<string, number>;
  env: NodeJS.ProcessEnv;
}

/** A TCP listener of this test process on a free loopback port. */
export async function listen(port = 0): Promise<Server> {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

/**
 * Ports free now, below Linux's ephemeral range (32768 and up), so that no outgoing connection
 * takes one of them while the test runs.
 */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  while (servers.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      servers.push(await listen(port));
    } catch {
      // taken: try another
    }
  }
  const ports = servers.map(portOf);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export async function privateCheckout(): Promise<Checkout> {
  const home = mkdtempSync(join(tmpdir(), 'tuber-startup-')); // mkdtemp makes it mode 700
  const state = join(home, 'state');
  const names = [...readFileSync(join(repo, '.env.example'), 'utf8').matchAll(/^([A-Z_]+_PORT)=/gm)].map((m) => m[1]);
  const free = await freePorts(names.length);
  const ports = Object.fromEntries(names.map((name, i) => [name, free[i]]));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TUBER_STATE: state,
    PUBLIC_URL: `http://localhost:${ports.GATEWAY_PORT}`,
    TUBER_INFRA: 'local',
  };
  for (const [name, port] of Object.entries(ports)) env[name] = String(port);
  // Whatever the test run itself was started with must not leak into the second checkout.
  for (const name of ['TUBER_LAUNCH_LOG', 'TUBER_ABORT', 'TUBER_DAEMON', 'NATS_URL', 'REDIS_URL']) delete env[name];
  return { home, state, ports, env };
}

export interface Outcome {
  code: number | null;
  /** stdout and stderr, interleaved. */
  output: string;
}

/** Runs a repository script (path relative to the repo) for the checkout. */
export function run(checkout: Checkout, script: string, args: string[] = [], extra: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(repo, script), ...args], {
      cwd: repo,
      env: { ...checkout.env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Live processes started for this checkout (their environment carries its daemon tag). */
export function daemonsOf(checkout: Checkout): { pid: number; name: string }[] {
  const found: { pid: number; name: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue;
    }
    const tag = environ.split('\0').find((v) => v.startsWith('TUBER_DAEMON='));
    if (tag?.startsWith(`TUBER_DAEMON=${checkout.state}#`)) found.push({ pid: Number(entry), name: tag.split('#').pop()! });
  }
  return found;
}

export const daemonNames = (checkout: Checkout) => [...new Set(daemonsOf(checkout).map((d) => d.name))].sort();

/** True when something accepts connections on 127.0.0.1:port. */
export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Stops everything of the checkout (scripts first, then any process still carrying its tag) and deletes it. */
export async function dispose(checkout: Checkout): Promise<void> {
  await run(checkout, 'infra/local/down.sh');
  await run(checkout, 'infra/local/postgres.sh', ['purge']);
  for (const { pid } of daemonsOf(checkout)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(checkout.home, { recursive: true, force: true });
}
