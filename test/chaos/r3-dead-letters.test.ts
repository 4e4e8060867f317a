// R3 (issue 10 §2): a poison event. A durable consumer on the real NATS JetStream, run by the kit's
// EventBus exactly as the services run theirs, gets N good keyed events and one its handler cannot
// handle (a bug, "fixed" later by the test). The poison event must be retried with back-off up to
// the bound, then parked in the dead-letter stream TUBER_DLQ with an alert in the log, while the
// events published before, with and after it are handled once each; then the real re-drive command
// (`make redrive`, infra/local/redrive.sh) delivers it again after the fix, and its effect appears once.
//   full: 2 000 good events; short (CI): 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM, type EventContract } from '@tuber/contracts';
import { EventBus, listDeadLetters, retryDelay } from '@tuber/kit';
import { natsUrl } from '../support/credentials.js';
import { REPO } from './support/faults.js';
import { reportChaos } from './support/report.js';
import { byScale, SCALE, until } from './support/traffic.js';

const GOOD = byScale(2_000, 200);
const MAX_DELIVER = 5;
const BACKOFF = { backoffMs: 250, maxBackoffMs: 2_000 };
const RUN = Date.now().toString(36);
const DURABLE = `chaos-r3-${RUN}`;
/** An event of its own (never a real service's subject): the services' consumers never see it. */
const ProductPriced: EventContract = {
  subject: `tuber.test.r3-${RUN}.priced.v1`,
  version: 1,
  payload: Type.Object({ key: Type.String(), price_kobo: Type.Integer() }),
};
const POISON_KEY = `R3 ${RUN} poison`;

/** The consumer's log, as pino JSON lines, to find the alert. */
const logLines: Record<string, unknown>[] = [];
const log = pino(
  { level: 'info', base: { service: 'chaos-r3' } },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

let bus: EventBus;
let publisher: EventBus;

beforeAll(async () => {
  bus = await EventBus.connect(natsUrl(), 'chaos-r3-consumer', log);
  publisher = await EventBus.connect(natsUrl(), 'chaos-r3-publisher', pino({ level: 'silent' }));
});

afterAll(async () => {
  const jsm = await jetstreamManager(publisher.connection);
  await jsm.consumers.delete(EVENT_STREAM, DURABLE).catch(() => undefined);
  await bus?.close();
  await publisher?.close();
});

const redriveCommand = promisify(execFile);

describe(`R3: a poison event among ${GOOD} good ones (${SCALE})`, () => {
  it('is retried with back-off up to the bound, parked with an alert while the others flow, and re-driven once after the fix', async () => {
    // ---- the consumer: keyed effects; one key it cannot handle until "fixed" ----
    let fixed = false;
    const effects = new Map<string, number>();
    const handledAt = new Map<string, number>();
    const poisonAttempts: { at: number; delivery: number }[] = [];
    let deliveries = 0;
    await bus.consume(ProductPriced, { durable: DURABLE, maxDeliver: MAX_DELIVER, ...BACKOFF }, async (payload, context) => {
      const event = payload as { key: string; price_kobo: number };
      deliveries += 1;
      if (event.key === POISON_KEY) {
        poisonAttempts.push({ at: Date.now(), delivery: context.deliveryCount });
        if (!fixed) throw new Error(`price ${event.price_kobo} kobo has no unit: cannot handle ${event.key}`);
      }
      effects.set(event.key, (effects.get(event.key) ?? 0) + 1);
      handledAt.set(event.key, Date.now());
    });

    // ---- traffic: a quarter of the good events, the poison one, then the rest in batches ----
    const keys = Array.from({ length: GOOD }, (_, i) => `R3 ${RUN} good ${i}`);
    const publishedAt = new Map<string, number>();
    const send = async (key: string, price: number) => {
      await publisher.publish(ProductPriced, { key, price_kobo: price }, `r3:${key}`);
      publishedAt.set(key, Date.now());
    };
    const started = Date.now();
    const quarter = Math.floor(GOOD / 4);
    for (const key of keys.slice(0, quarter)) await send(key, 150_000);
    await send(POISON_KEY, -1);
    const poisonPublished = Date.now();
    // The rest while the poison event is being retried: a batch every 100 ms.
    const rest = keys.slice(quarter);
    const batch = Math.max(1, Math.ceil(rest.length / 20));
    for (let i = 0; i < rest.length; i += batch) {
      await Promise.all(rest.slice(i, i + batch).map((key) => send(key, 150_000)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // ---- parked ----
    const parked = await until(
      () => listDeadLetters(publisher.connection, { consumer: DURABLE }),
      (letters) => letters.length > 0,
      60_000,
      200,
    );
    const parkedAt = Date.now();
    await until(
      async () => keys.filter((k) => effects.has(k)).length,
      (n) => n === GOOD,
      120_000,
      100,
    );
    const allGoodAt = Math.max(...keys.map((k) => handledAt.get(k) ?? Infinity));
    // After the poison event: handled while it was being retried (before it was given up on).
    const afterPoison = rest.filter((k) => (handledAt.get(k) ?? Infinity) < poisonAttempts[poisonAttempts.length - 1]!.at).length;
    await new Promise((resolve) => setTimeout(resolve, 2 * BACKOFF.maxBackoffMs));
    const beforeFix = [...poisonAttempts];
    const attemptsBeforeFix = beforeFix.length;

    const alert = logLines.find((l) => l.alert === 'dead-letter' && l.consumer === DURABLE);
    const letter = parked[0];
    const gaps = beforeFix.slice(1).map((a, i) => a.at - beforeFix[i]!.at);
    const expectedGaps = beforeFix.slice(1).map((_, i) => retryDelay(BACKOFF, i + 1));

    // ---- the fix, then the real re-drive command ----
    fixed = true;
    const redriveStarted = Date.now();
    const command = await redriveCommand('bash', ['infra/local/redrive.sh', 'redrive', '--consumer', DURABLE], {
      cwd: REPO,
      timeout: 120_000,
    });
    await until(
      async () => effects.get(POISON_KEY) ?? 0,
      (n) => n > 0,
      30_000,
      50,
    );
    const redrivenAfter = Date.now() - redriveStarted;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const leftParked = await listDeadLetters(publisher.connection, { consumer: DURABLE });

    // ---- counts by key ----
    const missing = keys.filter((k) => !effects.has(k)).length + (effects.has(POISON_KEY) ? 0 : 1);
    const doubled = [...effects.values()].filter((n) => n > 1).length;
    const redeliveries = deliveries - (GOOD + 2); // 1 delivery per good event, the poison's first and its re-driven one
    const checks = {
      parkedOnce: parked.length === 1,
      parkedAfterBound: attemptsBeforeFix === MAX_DELIVER && beforeFix.map((a) => a.delivery).join() === '1,2,3,4,5',
      backedOff: gaps.every((gap, i) => gap >= expectedGaps[i]! * 0.8),
      deadLetterComplete:
        letter?.subject === ProductPriced.subject &&
        letter?.messageId === `r3:${POISON_KEY}` &&
        letter?.deliveries === MAX_DELIVER &&
        JSON.parse(letter?.payload ?? '{}').key === POISON_KEY &&
        /no unit/.test(letter?.error ?? ''),
      alerted:
        alert?.level === 50 &&
        String(alert?.msg).includes(DURABLE) &&
        String(alert?.msg).includes(ProductPriced.subject) &&
        String(alert?.msg).includes(`r3:${POISON_KEY}`),
      othersFlowed: afterPoison > 0 && missing === 0,
      redrivenOnce: effects.get(POISON_KEY) === 1 && leftParked.length === 0,
    };
    const pass = Object.values(checks).every(Boolean) && doubled === 0;

    reportChaos({
      id: 'R3',
      title: 'A poison event: bounded retries, dead-letter stream, re-drive',
      method:
        `${GOOD} good keyed events and 1 poison event (its handler throws until the test "fixes" it) published to one durable ` +
        `JetStream consumer run by the kit's EventBus (as every service runs its consumers) on the real NATS: a quarter of the good ` +
        `events, the poison one, then the rest in 20 batches 100 ms apart. Bound: ${MAX_DELIVER} deliveries, back-off ${BACKOFF.backoffMs} ms ` +
        `doubling up to ${BACKOFF.maxBackoffMs} ms (services: 8 deliveries, 1 s doubling to 30 s). Then the fix, and the re-drive command ` +
        `\`bash infra/local/redrive.sh redrive --consumer ${DURABLE}\` (what \`make redrive\` runs). Effects are counted by key in the handler.`,
      counts: {
        sent: GOOD + 1,
        effects: [...effects.keys()].length,
        missing,
        doubled,
        redeliveries,
        parked: parked.length,
        poisonDeliveries: attemptsBeforeFix,
        goodHandledWhilePoisonRetried: afterPoison,
      },
      observations: [
        `poison deliveries at +${beforeFix.map((a) => Math.max(0, a.at - poisonPublished)).join(', +')} ms (gaps ${gaps.join(', ')} ms; back-off ${expectedGaps.join(', ')} ms); parked after ${((parkedAt - poisonPublished) / 1000).toFixed(1)} s, not delivered again until the re-drive`,
        `all ${GOOD} good events handled ${((allGoodAt - started) / 1000).toFixed(1)} s after the first publish; ${afterPoison} of the ${rest.length} published after the poison one were handled before it was given up on`,
        `dead letter #${letter?.seq}: subject ${letter?.subject}, message id ${letter?.messageId}, ${letter?.deliveries} deliveries, error "${letter?.error}"`,
        `alert (level ${alert?.level === 50 ? 'error' : alert?.level}): ${String(alert?.msg)}`,
        `re-drive: "${command.stdout.trim().split('\n').pop()}"; effect seen ${redrivenAfter} ms after the command started; effects for the poison key: ${effects.get(POISON_KEY) ?? 0}; left in TUBER_DLQ: ${leftParked.length}`,
      ],
      pass,
      notes: [
        'Failures because a dependency is away (database, Redis, the bus) are retried with back-off for as long as they last and never parked (kit integration test dead-letters.test.ts); R2 relies on that.',
      ],
    });

    expect(checks).toEqual({
      parkedOnce: true,
      parkedAfterBound: true,
      backedOff: true,
      deadLetterComplete: true,
      alerted: true,
      othersFlowed: true,
      redrivenOnce: true,
    });
    expect({ missing, doubled }).toEqual({ missing: 0, doubled: 0 });
  });
});
