// R2 (issue 10 §2): keyed profile changes go through the gateway while NATS is restarted
// (infra/local/nats.sh stop, a pause, start) and then the database is paused (SIGSTOP/SIGCONT of
// FerretDB, the MongoDB-wire server every service uses). Each change's effect is checked by its key
// (the new business name): one FarmerProfileChanged in the event stream per accepted change, and the
// catalog's copy of every farmer ending on the farmer's last change. Conditions: while NATS is down a
// change is answered within 1 s (from the outbox); while the database is paused requests answer 503,
// never 500; /ready is back within 15 s of each recovery; what was recorded during the NATS outage is
// published within 60 s of NATS being back; nothing missing, nothing doubled.
//   full: 20 farmers, NATS down 15 s, database paused 20 s; short: 4 farmers, 8 s and 12 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { FarmerProfileChanged } from '@tuber/contracts';
import { mongoUrl } from '../support/credentials.js';
import { BusProbe, healthyStack, pause, restoreAll, resume, startServer, stopServer, waitReady } from './support/faults.js';
import { reportChaos } from './support/report.js';
import { actors, byScale, closeAgents, removeActors, SCALE, until, type Actor } from './support/traffic.js';

const FARMERS = byScale(20, 4);
/** Pause between one farmer's commands (the gateway allows 30 requests/s per address). */
const PACE_MS = byScale(200, 100);
const NATS_DOWN_MS = byScale(15_000, 8_000);
const DB_PAUSE_MS = byScale(20_000, 12_000);
const CALM_MS = byScale(8_000, 5_000);
const RUN = Date.now().toString(36);
/** Client addresses of their own (R1 uses the first ones). */
const FIRST_ADDRESS = 300;

type Phase = 'before' | 'nats-down' | 'nats-back' | 'db-paused' | 'db-back';
interface Answer {
  key: string;
  farmer: string;
  phase: Phase;
  status: number;
  ms: number;
  message?: string;
}

let farmers: Actor[] = [];
let probe: BusProbe;
let catalog: mongoose.Connection;
let profile: mongoose.Connection;

beforeAll(async () => {
  await healthyStack();
  probe = await BusProbe.open();
  const open = (db: string) => mongoose.createConnection(mongoUrl(db)).asPromise();
  [catalog, profile] = await Promise.all([open('catalog'), open('profile')]);
});

afterAll(async () => {
  // Whatever happened above: FerretDB runs (resumed), NATS runs, every service is ready.
  await restoreAll();
  await removeActors(farmers).catch(() => undefined);
  await closeAgents();
  await probe?.close();
  await Promise.all([catalog, profile].map((c) => c?.close()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

describe(`R2: profile changes while NATS restarts and the database is paused (${SCALE})`, () => {
  it('answers from the outbox within 1 s, 503 (never 500) while paused, recovers within bounds; every effect once by key', async () => {
    // ---- set-up: farmers whose profiles reached the catalog ----
    farmers = await actors('farmer', FARMERS, FIRST_ADDRESS);
    const farmerIds = farmers.map((f) => f.id);
    const projected = await until(
      () => catalog.collection('farmer').countDocuments({ farmer_id: { $in: farmerIds } }),
      (n) => n === FARMERS,
      60_000,
    );
    expect(projected, 'every farmer reached the catalog').toBe(FARMERS);
    const fromSeq = (await probe.messages(FarmerProfileChanged.subject)).lastSeq;

    // ---- traffic: each farmer changes its business name over and over, one change at a time ----
    let phase: Phase = 'before';
    let stop = false;
    const answers: Answer[] = [];
    const drive = async (farmer: Actor, f: number) => {
      for (let c = 0; !stop; c++) {
        const key = `R2 ${RUN} f${f} c${c}`;
        const at = phase;
        const answer = await farmer.call('PATCH', '/api/profile/me', { json: { business_name: key }, timeoutMs: 70_000 });
        answers.push({ key, farmer: farmer.id, phase: at, status: answer.status, ms: answer.ms, message: answer.body?.message });
        await sleep(PACE_MS);
      }
    };
    const traffic = Promise.all(farmers.map((farmer, f) => drive(farmer, f)));
    const runStarted = Date.now();
    const observations: string[] = [];

    // ---- fault 1: NATS stopped, left down, started again ----
    await sleep(CALM_MS);
    const natsStopping = Date.now();
    await stopServer('nats');
    phase = 'nats-down';
    const natsDownAt = Date.now();
    await sleep(NATS_DOWN_MS);
    await startServer('nats');
    phase = 'nats-back';
    const natsBackAt = Date.now();
    const readyAfterNats = await Promise.all(
      (['profile', 'catalog'] as const).map(async (s) => [s, await waitReady(s, 60_000, 100).catch(() => Infinity)] as const),
    );
    observations.push(
      `NATS stopped at ${seconds(natsStopping - runStarted)} s (stop took ${seconds(natsDownAt - natsStopping)} s), down ${seconds(natsBackAt - natsDownAt)} s; ` +
        `/ready back after NATS answered: ${readyAfterNats.map(([s, ms]) => `${s} ${seconds(ms)} s`).join(', ')}`,
    );

    // What was accepted while NATS was down must reach the stream (the outbox relay), within 60 s.
    const recordedWhileDown = () => answers.filter((a) => a.phase === 'nats-down' && a.status === 200).map((a) => a.key);
    const inStream = async () => {
      const events = await probe.read<{ business_name: string }>(FarmerProfileChanged.subject, fromSeq);
      return new Set(events.map((e) => e.business_name));
    };
    const downKeys = recordedWhileDown();
    const drained = await until(
      async () => {
        const seen = await inStream();
        return downKeys.filter((k) => !seen.has(k)).length;
      },
      (left) => left === 0,
      90_000,
      1_000,
    );
    const drainedMs = Date.now() - natsBackAt;
    observations.push(
      `${downKeys.length} changes accepted while NATS was down were published ${seconds(drainedMs)} s after NATS was back${drained ? ` — ${drained} NOT within 90 s` : ''}`,
    );

    // ---- fault 2: the database paused ----
    await sleep(CALM_MS);
    phase = 'db-paused';
    const pausedAt = Date.now();
    const paused = pause('ferretdb');
    await sleep(DB_PAUSE_MS);
    resume('ferretdb');
    phase = 'db-back';
    const resumedAt = Date.now();
    const readyAfterDb = await Promise.all(
      (['profile', 'catalog', 'media', 'auth'] as const).map(
        async (s) => [s, await waitReady(s, 60_000, 100).catch(() => Infinity)] as const,
      ),
    );
    observations.push(
      `FerretDB (pids ${paused.join(', ')}) paused with SIGSTOP at ${seconds(pausedAt - runStarted)} s for ${seconds(resumedAt - pausedAt)} s; ` +
        `/ready back after SIGCONT: ${readyAfterDb.map(([s, ms]) => `${s} ${seconds(ms)} s`).join(', ')}`,
    );
    await sleep(CALM_MS);
    stop = true;
    await traffic;
    const runSeconds = (Date.now() - runStarted) / 1000;

    // ---- settle: the catalog's consumer has everything ----
    const settled = await until(
      async () => {
        const state = await probe.consumer('catalog-farmers');
        return state.pending === 0 && state.ackPending === 0;
      },
      (ok) => ok,
      180_000,
      500,
    );
    const outboxLeft = await until(
      () => profile.collection('farmer').countDocuments({ user_id: { $in: farmerIds }, 'outbox.0': { $exists: true } }),
      (n) => n === 0,
      60_000,
      500,
    );

    // ---- every effect by its key ----
    const events = await probe.read<{ farmer_id: string; business_name: string; revision: number }>(FarmerProfileChanged.subject, fromSeq);
    const eventsByKey = new Map<string, number>();
    for (const e of events) eventsByKey.set(e.business_name, (eventsByKey.get(e.business_name) ?? 0) + 1);
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    const missing: string[] = [];
    const doubled: string[] = [];
    let effects = 0;
    for (const a of accepted) {
      const n = eventsByKey.get(a.key) ?? 0;
      if (n === 0) missing.push(`${a.key} (accepted in phase ${a.phase}): no FarmerProfileChanged`);
      else if (n > 1) doubled.push(`${a.key}: ${n} FarmerProfileChanged events`);
      else effects += 1;
    }
    // A change refused with 503 may still have been applied: its write reached the paused server, whose
    // answer never came back in time (an ambiguous outcome, as with any time-out). Counted, not hidden.
    const landedDespiteRefusal = refused.filter((a) => eventsByKey.has(a.key));
    // The consumer: the catalog's copy ends on each farmer's last change, at the profile's revision.
    const profiles = new Map<string, { revision: number; business_name: string }>();
    for (const doc of await profile
      .collection('farmer')
      .find({ user_id: { $in: farmerIds } }, { projection: { user_id: 1, revision: 1, business_name: 1 } })
      .toArray())
      profiles.set(doc.user_id as string, { revision: doc.revision as number, business_name: doc.business_name as string });
    const copies = new Map<string, { revision: number; business_name: string }[]>();
    for (const doc of await catalog
      .collection('farmer')
      .find({ farmer_id: { $in: farmerIds } })
      .toArray())
      copies.set(doc.farmer_id as string, [
        ...(copies.get(doc.farmer_id as string) ?? []),
        { revision: doc.revision as number, business_name: doc.business_name as string },
      ]);
    for (const farmer of farmers) {
      const own = profiles.get(farmer.id);
      const copy = copies.get(farmer.id) ?? [];
      if (copy.length !== 1) doubled.push(`farmer ${farmer.id}: ${copy.length} catalog records`);
      else if (copy[0]!.revision !== own?.revision || copy[0]!.business_name !== own?.business_name)
        missing.push(
          `farmer ${farmer.id}: profile revision ${own?.revision} "${own?.business_name}", catalog revision ${copy[0]!.revision} "${copy[0]!.business_name}"`,
        );
    }

    // ---- what the traffic saw, per phase ----
    const phases: Phase[] = ['before', 'nats-down', 'nats-back', 'db-paused', 'db-back'];
    const perPhase = phases.map((p) => {
      const list = answers.filter((a) => a.phase === p);
      const statuses: Record<string, number> = {};
      for (const a of list) statuses[String(a.status)] = (statuses[String(a.status)] ?? 0) + 1;
      const ms = list.map((a) => a.ms).sort((x, y) => x - y);
      return {
        phase: p,
        count: list.length,
        statuses,
        max: Math.round(ms[ms.length - 1] ?? 0),
        p95: Math.round(ms[Math.ceil(ms.length * 0.95) - 1] ?? 0),
      };
    });
    const whileNatsDown = answers.filter((a) => a.phase === 'nats-down');
    const slowWhileNatsDown = whileNatsDown.filter((a) => a.ms >= 1_000).length;
    const count500 = answers.filter((a) => a.status === 500).length;
    const whileDbPaused = answers.filter((a) => a.phase === 'db-paused');
    const count503 = whileDbPaused.filter((a) => a.status === 503).length;
    const otherWhilePaused = whileDbPaused.filter((a) => a.status !== 503 && a.status !== 200);
    const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 503);
    const readyMax = Math.max(...[...readyAfterNats, ...readyAfterDb].map(([, ms]) => ms));
    const message503 = whileDbPaused.find((a) => a.status === 503)?.message;

    const checks = {
      answeredWithin1sWhileNatsDown: whileNatsDown.length > 0 && slowWhileNatsDown === 0 && whileNatsDown.every((a) => a.status === 200),
      no500: count500 === 0,
      only503WhileDown: count503 > 0 && otherWhilePaused.length === 0 && unexpected.length === 0,
      readyWithin15s: readyMax <= 15_000,
      outboxDrainedWithin60s: drained === 0 && drainedMs <= 60_000 && outboxLeft === 0,
      consumerCaughtUp: settled,
      noneMissing: missing.length === 0,
      noneDoubled: doubled.length === 0,
    };
    const pass = Object.values(checks).every(Boolean);

    reportChaos({
      id: 'R2',
      title: 'NATS restarted and the database paused mid-load',
      method:
        `${FARMERS} farmer accounts (each on its own client address) change their business name through the gateway ` +
        `(PATCH /api/profile/me, a unique name per command = its key), one change at a time, ${PACE_MS} ms apart, for the whole run. ` +
        `After ${CALM_MS / 1000} s NATS is stopped (infra/local/nats.sh stop), left down ${NATS_DOWN_MS / 1000} s and started again; ` +
        `${CALM_MS / 1000} s after it is back FerretDB is paused (SIGSTOP to its process tree) for ${DB_PAUSE_MS / 1000} s, then resumed (SIGCONT). ` +
        `Each request is classed by the phase it started in. Effects by key: one FarmerProfileChanged per accepted change in the ` +
        `event stream (read from before the run), and the catalog's farmer record (its consumer catalog-farmers) at each farmer's final ` +
        `profile revision and name. /ready is polled on each service's own port from the moment the fault ends.`,
      counts: {
        sent: answers.length,
        accepted: accepted.length,
        effects,
        missing: missing.length,
        doubled: doubled.length,
        status503: answers.filter((a) => a.status === 503).length,
        status500: count500,
        slowWhileNatsDown,
        landedDespiteRefusal: landedDespiteRefusal.length,
      },
      observations: [
        ...observations,
        `while NATS was down: ${whileNatsDown.length} changes, all answered ${whileNatsDown.every((a) => a.status === 200) ? '200' : 'NOT all 200'}, slowest ${Math.round(Math.max(0, ...whileNatsDown.map((a) => a.ms)))} ms`,
        `while the database was paused: ${whileDbPaused.length} requests started, ${count503} answered 503${message503 ? ` ("${message503}")` : ''}, ${whileDbPaused.filter((a) => a.status === 200).length} 200 (answered before the pause bit or after it ended), other ${otherWhilePaused.length}`,
        `every consumer caught up${settled ? '' : ' — NOT within 180 s'}; outboxes left non-empty: ${outboxLeft}; run ${runSeconds.toFixed(0)} s`,
        ...perPhase.map((p) => `${p.phase}: ${p.count} requests, statuses ${JSON.stringify(p.statuses)}, p95 ${p.p95} ms, max ${p.max} ms`),
        ...missing.slice(0, 10).map((m) => `missing: ${m}`),
        ...doubled.slice(0, 10).map((d) => `doubled: ${d}`),
        ...landedDespiteRefusal.slice(0, 5).map((a) => `answered ${a.status} but applied: ${a.key}`),
        ...unexpected.slice(0, 5).map((a) => `unexpected ${a.status} in ${a.phase}: ${a.key} ${a.message ?? ''}`),
      ],
      pass,
      notes: [
        'A 503 during the pause can hide a write that reached the paused server before the driver gave up on it (landedDespiteRefusal): ' +
          'repeating it sets the same name again (latest wins by revision), so the end state is the same; it is counted, not hidden.',
        'The kit bounds the publish after a write (none while the bus is disconnected, 500 ms for an acknowledgement otherwise) and the ' +
          'outbox relay runs right after a reconnect (docs/adr/0024); before, a change waited ~5 s for the publish to time out.',
        'Database and Redis connection, time-out and server-selection errors answer 503 with Retry-After in every service (kit errors.ts); ' +
          'the MongoDB driver notices a paused server within ~10 s (5 s heartbeat, 5 s connect time-out) and fails an operation stuck on it after 30 s at most.',
      ],
    });

    expect(checks).toEqual({
      answeredWithin1sWhileNatsDown: true,
      no500: true,
      only503WhileDown: true,
      readyWithin15s: true,
      outboxDrainedWithin60s: true,
      consumerCaughtUp: true,
      noneMissing: true,
      noneDoubled: true,
    });
  });
});
