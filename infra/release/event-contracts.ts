// The event contracts as files (docs/delivery.md), so a release's can be read back from git without running it:
//   contracts/events/<subject>.schema.json   each event's payload schema (JSON Schema, from contracts/src/events.ts)
//   contracts/events/samples/<subject>.json  events as the producers really published them, recorded from the stack
// test/unit/event-compat.test.ts checks today's consumers against the last release's events and the last
// release's consumers against today's.
//   npx tsx infra/release/event-contracts.ts            write the schemas
//   npx tsx infra/release/event-contracts.ts --samples  also record up to 3 recent events per subject from the
//                                                       running stack's stream (as the tests' NATS user)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ALL_EVENTS, EVENT_STREAM } from '@tuber/contracts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EVENTS_DIR = path.join(root, 'contracts/events');
export const schemaFile = (subject: string) => path.join(EVENTS_DIR, `${subject}.schema.json`);
export const samplesFile = (subject: string) => path.join(EVENTS_DIR, 'samples', `${subject}.json`);

/** The payload schema as JSON Schema text: TypeBox's schema without its symbols, keys as declared. */
export function schemaText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** Test accounts' addresses and names stay out of the repo: same shape, other letters. */
function scrub(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/[^@\s]+@[^@\s]+\.[a-z]+/gi, 'someone@example.com');
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner)]));
  return value;
}

async function recordSamples(): Promise<void> {
  const secret = fs.readFileSync(path.join(process.env.TUBER_STATE ?? path.join(root, '.run'), 'secrets/nats-tuber-test-password'), 'utf8').trim();
  const nc = await connect({ servers: `127.0.0.1:${process.env.NATS_PORT ?? 4222}`, user: 'tuber-test', pass: secret, name: 'event-samples' });
  try {
    const jsm = await jetstreamManager(nc);
    fs.mkdirSync(path.join(EVENTS_DIR, 'samples'), { recursive: true });
    for (const event of ALL_EVENTS) {
      const last = await jsm.streams.getMessage(EVENT_STREAM, { last_by_subj: event.subject }).catch(() => null);
      if (!last) {
        console.log(`${event.subject}: none in the stream; samples kept as they were`);
        continue;
      }
      const samples: unknown[] = [scrub(last.json())];
      // Two more of the same subject, older, for variety (optional fields present or not).
      for (let seq = last.seq - 1; seq > 0 && samples.length < 3 && last.seq - seq < 2000; seq--) {
        const message = await jsm.streams.getMessage(EVENT_STREAM, { seq }).catch(() => null);
        if (message?.subject !== event.subject) continue;
        const sample = scrub(message.json());
        if (!samples.some((kept) => JSON.stringify(Object.keys(kept as object).sort()) === JSON.stringify(Object.keys(sample as object).sort()))) samples.push(sample);
      }
      fs.writeFileSync(samplesFile(event.subject), `${JSON.stringify(samples, null, 2)}\n`);
      console.log(`${event.subject}: ${samples.length} recorded`);
    }
  } finally {
    await nc.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  fs.mkdirSync(EVENTS_DIR, { recursive: true });
  for (const event of ALL_EVENTS) fs.writeFileSync(schemaFile(event.subject), schemaText(event.payload));
  console.log(`${ALL_EVENTS.length} schemas in contracts/events/`);
  if (process.argv.includes('--samples')) await recordSamples();
}
