// P7: publishing an event through the kit's outbox (services/kit/src/outbox.ts) against the real
// FerretDB and NATS, and `nats bench` JetStream publishing on the same server in the same run.
//   Throughput: WRITERS concurrent writers, each doing what a route does: one document update that
//     records the change and its event (the outbox field), then publishRecorded (read the outbox,
//     publish with the message id, take the event out). Baseline: `nats bench js pub sync` with the
//     same number of clients, message size and message-id de-duplication. Reported, no target.
//   Commit→effect: writes at a fixed rate (P7_RATE, default 500 events/s) for P7_SECONDS; the time
//     from a write's commit (the update acknowledged) to a consumer on the bus handling the event
//     (durable, explicitly acknowledged, like the kit's consumers). Target p99 ≤ 50 ms.
// The events are tuber.identity.account.email.changed.v1 with email_verified false: a real contract
// (the outbox publishes contracts only) whose one real consumer, the profile service, takes no
// action on it. The documents live in a scratch collection (database bench_events), dropped at the end.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import mongoose from 'mongoose';
import { pino } from 'pino';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AccountEmailChanged, EVENT_STREAM } from '@tuber/contracts';
import { EventBus } from '../services/kit/src/events.js';
import { OutboxField, pendingEvent, publishRecorded } from '../services/kit/src/outbox.js';
import { mongoUrl, natsUrl, secret } from '../test/support/credentials.js';
import { report } from './support/report.js';

const WRITERS = Number(process.env.P7_WRITERS ?? 16);
const THROUGHPUT_S = Number(process.env.BENCH_DURATION_S ?? 5) * 2;
const RATE = Number(process.env.P7_RATE ?? 500);
/** A lower rate, reported alongside, to show the latency when the database is not the limit. */
const LOW_RATE = Number(process.env.P7_LOW_RATE ?? 100);
const SECONDS = Number(process.env.P7_SECONDS ?? 10);
const repo = fileURLToPath(new URL('..', import.meta.url));
// publishRecorded logs a publish it could not finish at warn; those are counted here instead.
const log = pino({ level: 'error' });
const subject = AccountEmailChanged.subject;

// A scratch collection, dropped at the end; P7_MONGO_DB/P7_MONGO_USER point it elsewhere (e.g. a service's own
// database as that service's user, when the test user cannot be used).
const MONGO_DB = process.env.P7_MONGO_DB ?? 'bench_events';
const MONGO_USER = process.env.P7_MONGO_USER ?? 'tuber-test';
const collection = `bench_outbox_${randomUUID().slice(0, 8)}`;
const connection = await mongoose.createConnection(mongoUrl(MONGO_DB, MONGO_USER)).asPromise();
const Account = connection.model(
  'BenchAccount',
  new mongoose.Schema({ account_id: String, email: String, changed_at: Date, outbox: OutboxField }, { collection }),
);
const bus = await EventBus.connect(natsUrl(), 'bench-events', log);

// More documents than writes in flight, so no two writes touch one document at once (a small
// collection all the same: FerretDB 1.x scans it for every equality filter).
// FerretDB 1.x stalls (every request of that user hangs until it restarts) once more operations of
// one user are in flight than its PostgreSQL pool holds (50): stay well below.
const MAX_IN_FLIGHT = 32;
const POOL = 2 * MAX_IN_FLIGHT;
const ids = Array.from({ length: POOL }, () => randomUUID());
await Account.insertMany(ids.map((account_id) => ({ account_id, email: `${account_id}@bench.tuber.local`, outbox: [] })));

/** A route's write: the change and its event in one update, then the inline publish. */
async function write(accountId: string, onCommit?: (messageId: string) => void): Promise<void> {
  const messageId = randomUUID();
  const changedAt = new Date();
  const email = `${messageId.slice(0, 8)}@bench.tuber.local`;
  const event = pendingEvent(
    AccountEmailChanged,
    { user_id: accountId, email, email_verified: false, changed_at: changedAt.toISOString() },
    messageId,
  );
  await Account.updateOne({ account_id: accountId }, { $set: { email, changed_at: changedAt }, $push: { outbox: event } });
  onCommit?.(messageId);
  if (!(await publishRecorded(Account, { account_id: accountId }, bus, log))) throw new Error('publish failed');
}

// ---- throughput --------------------------------------------------------------------------------------
async function outboxThroughput(seconds: number): Promise<number> {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    ids.slice(0, WRITERS).map(async (id) => {
      while (performance.now() < until) {
        await write(id);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

function natsBench(messages: number): { rate: number; command: string } {
  const cli = execFileSync('bash', [join(repo, 'infra/local/nats-cli.sh')], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'tuber-nats-bench-'));
  const csv = join(dir, 'bench.csv');
  const args = [
    'bench',
    'js',
    'pub',
    'sync',
    'bench.tuber.events',
    '--stream=tuber-bench',
    '--create',
    '--storage=file',
    '--maxbytes=64MB',
  ];
  args.push('--dedup', `--clients=${WRITERS}`, `--msgs=${messages}`, '--size=200B', '--no-progress', `--csv=${csv}`);
  const env = {
    ...process.env,
    NATS_URL: `nats://127.0.0.1:${process.env.NATS_PORT ?? 4222}`,
    NATS_USER: 'tuber-test',
    NATS_PASSWORD: secret('nats-tuber-test-password'),
  };
  try {
    const output = execFileSync(cli, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const aggregated = /aggregated stats: ([\d,]+) msgs\/sec/.exec(output);
    if (!aggregated) throw new Error(`nats bench printed no aggregated rate:\n${output}\n${readFileSync(csv, 'utf8')}`);
    return { rate: Number(aggregated[1]!.replaceAll(',', '')), command: `nats ${args.filter((a) => !a.startsWith('--csv')).join(' ')}` };
  } finally {
    execFileSync(cli, ['stream', 'rm', 'tuber-bench', '-f'], { env, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- commit → effect ---------------------------------------------------------------------------------
async function commitToEffect(rate: number) {
  const committed = new Map<string, number>();
  const latencies: number[] = [];
  const jsm = await jetstreamManager(bus.connection);
  const durable = `bench-events-${randomUUID().slice(0, 8)}`;
  await jsm.consumers.add(EVENT_STREAM, {
    durable_name: durable,
    filter_subject: subject,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
  });
  const messages = await (await jetstream(bus.connection).consumers.get(EVENT_STREAM, durable)).consume({ max_messages: 64 });
  const consuming = (async () => {
    for await (const message of messages) {
      const seen = performance.now();
      const id = message.headers?.get('Nats-Msg-Id') ?? '';
      const at = committed.get(id);
      if (at !== undefined) {
        message.json(); // what a handler does first
        latencies.push(seen - at);
        committed.delete(id);
      }
      message.ack();
    }
  })();

  const total = rate * SECONDS;
  const interval = 1000 / rate;
  const started = performance.now();
  let inFlight = 0;
  let maxInFlight = 0;
  let late = 0;
  let failed = 0;
  const writes: Promise<void>[] = [];
  // Writes the database cannot keep up with are not started after 1.5× the run's length.
  const stopAt = started + SECONDS * 1500;
  let issued = 0;
  for (let i = 0; i < total && performance.now() < stopAt; i++) {
    issued += 1;
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    if (performance.now() - due > 20) late += 1;
    while (inFlight >= MAX_IN_FLIGHT) await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    writes.push(
      write(ids[i % POOL]!, (messageId) => committed.set(messageId, performance.now()))
        .catch(() => {
          failed += 1;
        })
        .finally(() => {
          inFlight -= 1;
        }),
    );
  }
  await Promise.all(writes);
  const sent = performance.now() - started;
  const deadline = Date.now() + 10_000;
  while (committed.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  messages.stop();
  await consuming;
  await jsm.consumers.delete(EVENT_STREAM, durable);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
  return {
    rate,
    total: issued,
    achieved: issued / (sent / 1000),
    seen: latencies.length,
    missing: committed.size,
    failed,
    late,
    maxInFlight,
    p50: pct(50),
    p99: pct(99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}

try {
  console.log('P7: warm-up');
  await outboxThroughput(1); // warm-up
  console.log(`P7: outbox throughput, ${WRITERS} writers for ${THROUGHPUT_S} s`);
  const outbox = await outboxThroughput(THROUGHPUT_S);
  console.log('P7: nats bench');
  const nats = natsBench(Math.max(4000, Math.round(outbox * THROUGHPUT_S * 4)));
  console.log(`P7: commit→effect at ${RATE} and ${LOW_RATE} events/s`);
  const runNote = (e: Awaited<ReturnType<typeof commitToEffect>>) =>
    `commit→effect at ${e.rate}/s: ${e.total} writes at ${e.achieved.toFixed(0)} writes/s achieved; ${e.seen} events seen by the consumer, ` +
    `${e.missing} not seen within 10 s, ${e.failed} inline publishes failed (left to the relay), ${e.late} writes started over 20 ms late, ` +
    `at most ${e.maxInFlight} writes in flight; p50 ${e.p50.toFixed(1)} ms, p99 ${e.p99.toFixed(1)} ms.`;
  const effect = await commitToEffect(RATE);
  console.log(`P7: ${runNote(effect)}`);
  const low = await commitToEffect(LOW_RATE);
  console.log(`P7: ${runNote(low)}`);
  const ratio = outbox / nats.rate;
  report({
    id: 'P7',
    title: 'Event publish through the outbox',
    method:
      `Throughput: ${WRITERS} concurrent writers for ${THROUGHPUT_S} s, each a document update recording the change and its ` +
      `event (kit OutboxField) then publishRecorded (read outbox, JetStream publish with message id, $pull), against the ` +
      `running FerretDB and NATS; baseline \`${nats.command}\` on the same server right after. Commit→effect: ` +
      `${RATE} writes/s for ${SECONDS} s (at most ${MAX_IN_FLIGHT} in flight; scratch collection in ${MONGO_DB} as ${MONGO_USER}), time from the update's acknowledgement ` +
      `to a durable explicitly-acknowledged consumer handling the event, same process clock.`,
    rows: [
      {
        label: 'events published through the outbox vs nats bench js pub sync',
        value: `${Math.round(outbox)} events/s`,
        baseline: `${Math.round(nats.rate)} msgs/s`,
        ratio,
        target: 'report the ratio',
      },
      {
        label: `commit→effect at ${RATE} events/s`,
        value: `p99 ${effect.p99.toFixed(1)} ms (p50 ${effect.p50.toFixed(1)} ms, max ${effect.max.toFixed(0)} ms)`,
        target: 'p99 ≤ 50 ms',
        pass: effect.p99 <= 50 && effect.missing === 0 && effect.failed === 0,
      },
      {
        label: `commit→effect at ${LOW_RATE} events/s (for comparison)`,
        value: `p99 ${low.p99.toFixed(1)} ms (p50 ${low.p50.toFixed(1)} ms, max ${low.max.toFixed(0)} ms)`,
      },
    ],
    notes: [
      runNote(effect),
      runNote(low),
      'Each event costs three database round trips besides the publish (the update that records it, reading the outbox back, ' +
        'the $pull that takes it out), and FerretDB 1.x scans the collection for each equality filter; the database, not ' +
        'NATS, sets the outbox rate (nats bench on the same server is two orders of magnitude faster).',
    ],
  });
} finally {
  await connection.dropCollection(collection).catch(() => undefined);
  await connection.close();
  await bus.close();
}
