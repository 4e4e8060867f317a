// Fault injection against this checkout's running stack (infra/local): kill a service with
// SIGKILL and start it again the way app.sh does, stop/start/restart a server through its own
// script, pause a process tree with SIGSTOP and resume it with SIGCONT, wait for /ready.
//
// Processes are found the way infra/local/lib.sh finds them: the pid file $TUBER_STATE/pids/NAME.pid
// names the daemon, which carries TUBER_DAEMON=$TUBER_STATE#NAME in its environment. A pid whose
// tag is not ours is never signalled.
//
// Every fault is registered until it is undone: call `restoreAll()` from afterAll (or a finally)
// and whatever is still paused is resumed, and whatever is still down is started again. A pause
// is also undone when the test process exits, however it exits.
//
// Run these only under the stack lock: `flock -o /tmp/tuber-stack.lock …` (test/chaos/run.sh
// takes it for the whole chaos run).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM } from '@tuber/contracts';
import { natsUrl } from '../../support/credentials.js';

const run = promisify(execFile);
const env = process.env;

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const STATE = env.TUBER_STATE ? (isAbsolute(env.TUBER_STATE) ? env.TUBER_STATE : join(REPO, env.TUBER_STATE)) : join(REPO, '.run');

export type ServiceName = 'auth' | 'profile' | 'catalog' | 'media' | 'nutrition' | 'orders' | 'moderation';
export type ServerName = 'postgres' | 'ferretdb' | 'nats' | 'redis' | 'minio' | 'mailpit' | 'keycloak' | 'gateway';
export const SERVICES: ServiceName[] = ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation'];
export const SERVERS: ServerName[] = ['postgres', 'ferretdb', 'nats', 'redis', 'minio', 'mailpit', 'keycloak', 'gateway'];

const port = (name: string, fallback: number) => Number(env[name] ?? fallback);
/** Each service's own port (its /health and /ready are answered there, never through the gateway). */
export const SERVICE_PORTS: Record<ServiceName, number> = {
  auth: port('AUTH_PORT', 4001),
  profile: port('PROFILE_PORT', 4002),
  catalog: port('CATALOG_PORT', 4003),
  media: port('MEDIA_PORT', 4004),
  nutrition: port('NUTRITION_PORT', 4005),
  orders: port('ORDERS_PORT', 4006),
  moderation: port('MODERATION_PORT', 4007),
};
export const PUBLIC_URL = env.PUBLIC_URL ?? 'http://localhost:8080';

const isService = (name: string): name is ServiceName => (SERVICES as string[]).includes(name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The TUBER_DAEMON tag a live process carries, or undefined. */
function tagOf(pid: number): string | undefined {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return environ.find((v) => v.startsWith('TUBER_DAEMON='))?.slice('TUBER_DAEMON='.length);
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (killed, not yet reaped by its parent) counts as gone.
  try {
    return !/^State:\s*Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pid of this checkout's daemon NAME from its pid file, or undefined when it does not run. */
export function pidOf(name: ServiceName | ServerName | string): number | undefined {
  const file = join(STATE, 'pids', `${name}.pid`);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 1 || !alive(pid)) return undefined;
  const tag = tagOf(pid);
  // Daemons started before the tag existed have none; a different tag is somebody else's process.
  if (tag !== undefined && tag !== `${STATE}#${name}`) return undefined;
  return pid;
}

function ownPid(name: string): number {
  const pid = pidOf(name);
  if (pid === undefined) throw new Error(`${name} does not run (no live pid in ${join(STATE, 'pids', `${name}.pid`)})`);
  return pid;
}

/** PID and every process below it (postgres' backends make their own process groups, so groups are not enough). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/^PPid:\s*(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {
      /* gone meanwhile */
    }
  }
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(parents.get(next) ?? []));
  }
  return tree;
}

function signalTree(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

async function shell(script: string, args: string[], timeoutMs = 240_000): Promise<string> {
  try {
    const { stdout, stderr } = await run('bash', [join(REPO, script), ...args], {
      cwd: REPO,
      timeout: timeoutMs,
      env: { ...env, TUBER_STATE: STATE },
      maxBuffer: 16 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`bash ${script} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

// ---- what is broken right now, so it can always be put back ----
const paused = new Map<ServiceName | ServerName, number[]>();
const down = new Set<string>();

process.on('exit', () => {
  for (const pids of paused.values()) signalTree(pids, 'SIGCONT');
});

export interface Killed {
  name: string;
  pid: number;
  /** When the signal was sent (ms since the epoch). */
  at: number;
}

/**
 * `kill -9` a service or server: SIGKILL to its whole process tree, no chance to finish anything
 * (in-flight handlers, unacknowledged messages, half-done requests). Resolves once it is gone.
 */
export async function kill9(name: ServiceName | ServerName): Promise<Killed> {
  const pid = ownPid(name);
  const tree = processTree(pid);
  const at = Date.now();
  down.add(name);
  signalTree(tree, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (tree.some(alive)) {
    if (Date.now() > deadline) throw new Error(`${name} (pid ${pid}) survived SIGKILL for 10 s`);
    await sleep(50);
  }
  return { name, pid, at };
}

/**
 * SIGKILL to the process tree of a daemon by its pid-file name (a replica such as orders-1, a NATS node
 * such as nats-2), at once; undefined when it does not run. `gone` resolves with the moment the tree
 * was seen gone (10 s at most): until then the killed process may still hold its sockets and be
 * handed a request.
 */
export function sigkillByName(name: string): { pid: number; at: number; gone: Promise<number> } | undefined {
  const pid = pidOf(name);
  if (pid === undefined) return undefined;
  const tree = processTree(pid);
  const at = Date.now();
  signalTree(tree, 'SIGKILL');
  const gone = (async () => {
    while (tree.some(alive) && Date.now() - at < 10_000) await sleep(20);
    return Date.now();
  })();
  return { pid, at, gone };
}

/** Starts a service the way `make up` does (infra/local/app.sh start NAME) and waits for its /ready. */
export async function startService(name: ServiceName, readyWithinMs = 60_000): Promise<number> {
  await shell('infra/local/app.sh', ['start', name]);
  const ms = await waitReady(name, readyWithinMs);
  down.delete(name);
  return ms;
}

/** Stops a server through its own script (TERM, then KILL after 20 s). */
export async function stopServer(name: ServerName): Promise<void> {
  down.add(name);
  await shell(`infra/local/${name}.sh`, ['stop']);
}

/** Starts a server through its own script, which waits until it answers. */
export async function startServer(name: ServerName): Promise<void> {
  await shell(`infra/local/${name}.sh`, ['start']);
  down.delete(name);
}

/** Stops and starts a server (or a service, through app.sh); returns how long it took in ms. */
export async function restart(name: ServiceName | ServerName): Promise<number> {
  const started = Date.now();
  if (isService(name)) {
    down.add(name);
    await shell('infra/local/app.sh', ['restart', name]);
    await waitReady(name);
    down.delete(name);
  } else {
    await stopServer(name);
    await startServer(name);
  }
  return Date.now() - started;
}

/** SIGSTOP to the process and everything below it: it holds its sockets but answers nothing. */
export function pause(name: ServiceName | ServerName): number[] {
  if (paused.has(name)) return paused.get(name)!;
  const tree = processTree(ownPid(name));
  paused.set(name, tree);
  signalTree(tree, 'SIGSTOP');
  return tree;
}

/** SIGCONT to what `pause` stopped. */
export function resume(name: ServiceName | ServerName): void {
  const tree = paused.get(name);
  if (!tree) return;
  signalTree(tree, 'SIGCONT');
  paused.delete(name);
}

/** Pauses NAME for `ms`, then resumes it, even if the wait is interrupted. */
export async function pauseFor(name: ServiceName | ServerName, ms: number): Promise<void> {
  pause(name);
  try {
    await sleep(ms);
  } finally {
    resume(name);
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Where NAME says it is ready: a service's /ready on its own port, the gateway's /gateway-health. */
export function readyUrl(name: ServiceName | 'gateway'): string {
  return name === 'gateway' ? `${PUBLIC_URL}/gateway-health` : `http://127.0.0.1:${SERVICE_PORTS[name]}/ready`;
}

/** Polls NAME's readiness until it answers 2xx; resolves with the ms it took, throws after `timeoutMs`. */
export async function waitReady(name: ServiceName | 'gateway', timeoutMs = 60_000, everyMs = 100): Promise<number> {
  const started = Date.now();
  const url = readyUrl(name);
  for (;;) {
    if (await answers(url)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${name} was not ready within ${timeoutMs} ms (${url})`);
    await sleep(everyMs);
  }
}

/**
 * Waits until every service answers /ready and the gateway answers, or throws naming the ones
 * that do not: a scenario starts from a healthy stack, or not at all.
 */
export async function healthyStack(timeoutMs = 120_000): Promise<void> {
  const late: string[] = [];
  await Promise.all([...SERVICES, 'gateway' as const].map((name) => waitReady(name, timeoutMs, 250).catch(() => late.push(name))));
  if (late.length) throw new Error(`not ready before the scenario (after ${timeoutMs / 1000} s): ${late.join(', ')}`);
}

/** True when every service answers /ready and the gateway answers. */
export async function stackReady(): Promise<boolean> {
  const checks = await Promise.all([...SERVICES.map((s) => answers(readyUrl(s))), answers(readyUrl('gateway'))]);
  return checks.every(Boolean);
}

/**
 * Undoes every fault still in place: resumes what is paused, starts servers and services that are
 * down (servers first, then services), then waits until every service is ready. Call it from
 * afterAll; safe to call when nothing is broken.
 */
export async function restoreAll(readyWithinMs = 90_000): Promise<void> {
  for (const name of [...paused.keys()]) resume(name);
  const problems: string[] = [];
  // Anything this module took down, plus anything found dead (a fault that escaped the registry).
  const wanted = new Set<string>(down);
  for (const name of [...SERVERS, ...SERVICES]) if (pidOf(name) === undefined) wanted.add(name);
  for (const name of SERVERS.filter((s) => wanted.has(s))) {
    await startServer(name).catch((err: Error) => problems.push(err.message));
  }
  const services = SERVICES.filter((s) => wanted.has(s));
  if (services.length) {
    await shell('infra/local/app.sh', ['start', ...services]).catch((err: Error) => problems.push(err.message));
    for (const s of services) down.delete(s);
  }
  await Promise.all(SERVICES.map((s) => waitReady(s, readyWithinMs).catch((err: Error) => problems.push(err.message))));
  if (problems.length) throw new Error(`the stack could not be restored:\n${problems.join('\n')}`);
}

/** Lines a service logged since `sinceMs` (pino JSON lines of .run/logs/NAME.log, parsed). */
export function logSince(name: ServiceName, sinceMs: number): Record<string, unknown>[] {
  const file = join(STATE, 'logs', `${name}.log`);
  if (!existsSync(file)) return [];
  const lines: Record<string, unknown>[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (typeof entry.time === 'number' && entry.time >= sinceMs) lines.push(entry);
    } catch {
      /* a line cut by a kill */
    }
  }
  return lines;
}

// ---- the event bus, as the tests' own NATS user (tuber-test) ----

/** A connection to NATS JetStream as tuber-test, for reading consumer and stream state. */
export class BusProbe {
  private constructor(
    readonly connection: NatsConnection,
    readonly jsm: JetStreamManager,
  ) {}

  static async open(): Promise<BusProbe> {
    const url = new URL(natsUrl());
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    const servers = `${url.hostname}:${url.port}`;
    const connection = await connect({
      servers,
      ...(user ? { user, pass, inboxPrefix: `_INBOX_${user}` } : {}),
      name: 'chaos-probe',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    return new BusProbe(connection, await jetstreamManager(connection));
  }

  /**
   * A durable consumer's counters: `delivered` counts every delivery (redeliveries included),
   * `pending` what the server still has to deliver, `ackPending` what was delivered and not yet
   * acknowledged, `redelivered` the unacknowledged messages delivered more than once.
   */
  async consumer(
    durable: string,
  ): Promise<{ delivered: number; streamSeq: number; pending: number; ackPending: number; redelivered: number }> {
    const info = await this.jsm.consumers.info(EVENT_STREAM, durable);
    return {
      delivered: info.delivered.consumer_seq,
      streamSeq: info.delivered.stream_seq,
      pending: info.num_pending,
      ackPending: info.num_ack_pending,
      redelivered: info.num_redelivered,
    };
  }

  /** Messages the stream holds on `subject`, and its last sequence. */
  async messages(subject: string): Promise<{ count: number; lastSeq: number }> {
    const info = await this.jsm.streams.info(EVENT_STREAM, { subjects_filter: subject });
    return { count: info.state.subjects?.[subject] ?? 0, lastSeq: info.state.last_seq };
  }

  /**
   * The payloads of `subject` published after stream sequence `afterSeq`: an ordered consumer reads
   * the stream from there and keeps that subject (the local nats-server predates filter_subjects).
   */
  async read<T = unknown>(subject: string, afterSeq: number): Promise<T[]> {
    const { lastSeq } = await this.messages(subject);
    if (lastSeq <= afterSeq) return [];
    const consumer = await jetstream(this.connection).consumers.get(EVENT_STREAM, { opt_start_seq: afterSeq + 1 });
    const out: T[] = [];
    for (let last = afterSeq; last < lastSeq;) {
      const batch = await consumer.fetch({ max_messages: 1_000, expires: 2_000 });
      let got = 0;
      for await (const message of batch) {
        if (message.subject === subject) out.push(message.json<T>());
        got += 1;
        last = message.seq;
      }
      if (got === 0) break;
    }
    return out;
  }

  async close(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.drain();
  }
}
