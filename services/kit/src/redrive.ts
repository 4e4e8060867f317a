// Dead letters (docs/adr/0024): list what consumers parked in TUBER_DLQ, and re-drive it once the
// cause is fixed. A re-drive publishes the parked payload to its original subject with a new
// message id (`redrive:<dead-letter seq>`, so running the command twice within JetStream's
// 2-minute duplicate window stores it once, while the original id, still inside that window or not,
// can never swallow it) and the original id in the Tuber-Redrive-Of header, which consumers see as
// EventContext.messageId. The dead letter is deleted only after the event stream acknowledged the
// publish: a crash in between re-drives it again, harmlessly (handlers are idempotent).
//
//   NATS_URL=nats://user:pw@host:port node services/kit/dist/redrive.js [list|redrive] [--consumer NAME] [--seq N]
//   (`make redrive` does it with this checkout's credentials: infra/local/redrive.sh)
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager, type StoredMsg } from '@nats-io/jetstream';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { natsServer } from './credentials.js';
import { DEAD_LETTER_STREAM, DEAD_LETTER_SUBJECTS, DeadLetterHeader, deadLetterSubject, REDRIVE_OF_HEADER } from './events.js';

export interface DeadLetter {
  /** Sequence in TUBER_DLQ: what `--seq` names. */
  seq: number;
  consumer: string;
  subject: string;
  messageId: string;
  deliveries: number;
  error: string;
  parkedAt: string;
  payload: string;
}

export interface RedriveResult {
  redriven: DeadLetter[];
  failed: { deadLetter: DeadLetter; error: string }[];
}

export interface DeadLetterFilter {
  /** Only this consumer's dead letters (its durable name). */
  consumer?: string;
  /** Only this one (its sequence in TUBER_DLQ). */
  seq?: number;
}

function toDeadLetter(message: StoredMsg): DeadLetter {
  const h = (name: string) => message.header?.get(name) ?? '';
  return {
    seq: message.seq,
    consumer: h(DeadLetterHeader.consumer),
    subject: h(DeadLetterHeader.subject),
    messageId: h(DeadLetterHeader.messageId),
    deliveries: Number(h(DeadLetterHeader.deliveries) || 0),
    error: h(DeadLetterHeader.error),
    parkedAt: h(DeadLetterHeader.parkedAt),
    payload: message.string(),
  };
}

const isMissing = (err: unknown) => /no message found|not found/i.test(err instanceof Error ? err.message : String(err));

/** The dead letters in TUBER_DLQ, oldest first (reads them; changes nothing). */
export async function listDeadLetters(connection: NatsConnection, filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
  const jsm = await jetstreamManager(connection);
  return readDeadLetters(jsm, filter);
}

async function readDeadLetters(jsm: JetStreamManager, filter: DeadLetterFilter): Promise<DeadLetter[]> {
  if (filter.seq !== undefined) {
    try {
      const message = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq: filter.seq });
      const letter = message ? toDeadLetter(message) : undefined;
      return letter && (!filter.consumer || letter.consumer === filter.consumer) ? [letter] : [];
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }
  const subject = filter.consumer ? deadLetterSubject(filter.consumer) : DEAD_LETTER_SUBJECTS;
  const letters: DeadLetter[] = [];
  // The next message on the subject at or after `seq` (STREAM.MSG.GET next_by_subj): skips the gaps
  // deleted dead letters leave without reading every sequence number.
  for (let seq = 1; ;) {
    let message: StoredMsg | null;
    try {
      message = await jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq, next_by_subj: subject } as never);
    } catch (err) {
      if (isMissing(err)) break;
      throw err;
    }
    if (!message) break;
    letters.push(toDeadLetter(message));
    seq = message.seq + 1;
  }
  return letters;
}

/**
 * Publishes parked events to their original subjects again and removes each from TUBER_DLQ once
 * the event stream has it. One that cannot be published stays parked and is reported.
 */
export async function redrive(connection: NatsConnection, filter: DeadLetterFilter = {}, timeoutMs = 5_000): Promise<RedriveResult> {
  const jsm = await jetstreamManager(connection);
  const js = jetstream(connection);
  const result: RedriveResult = { redriven: [], failed: [] };
  for (const letter of await readDeadLetters(jsm, filter)) {
    try {
      if (!letter.subject) throw new Error('the dead letter does not name its original subject');
      const h = headers();
      h.set(REDRIVE_OF_HEADER, letter.messageId);
      h.set('Tuber-Redriven-From', `${DEAD_LETTER_STREAM}:${letter.seq}`);
      await js.publish(letter.subject, letter.payload, {
        msgID: `redrive:${letter.seq}:${letter.messageId}`,
        headers: h,
        timeout: timeoutMs,
      });
      await jsm.streams.deleteMessage(DEAD_LETTER_STREAM, letter.seq, false);
      result.redriven.push(letter);
    } catch (err) {
      result.failed.push({ deadLetter: letter, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}

function argument(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: string[]): Promise<number> {
  const command = args[0] && !args[0].startsWith('--') ? args[0] : 'list';
  const consumer = argument(args, '--consumer') || undefined;
  const seqText = argument(args, '--seq');
  const filter: DeadLetterFilter = { ...(consumer ? { consumer } : {}), ...(seqText ? { seq: Number(seqText) } : {}) };
  if (!['list', 'redrive'].includes(command) || (seqText && !Number.isInteger(filter.seq))) {
    console.error('usage: redrive [list|redrive] [--consumer NAME] [--seq N]   (NATS_URL names the server and a user allowed to re-drive)');
    return 2;
  }
  const url = process.env.NATS_URL;
  if (!url) {
    console.error('NATS_URL is not set (nats://user:password@host:port); `make redrive` sets it for this checkout.');
    return 2;
  }
  const { servers, user, pass } = natsServer(url);
  const connection = await connect({ servers, ...(user ? { user, pass } : {}), name: 'tuber-redrive' });
  try {
    if (command === 'list') {
      const letters = await listDeadLetters(connection, filter);
      if (!letters.length) console.log(`${DEAD_LETTER_STREAM} holds no dead letters${consumer ? ` of ${consumer}` : ''}.`);
      for (const l of letters)
        console.log(
          `#${l.seq} ${l.parkedAt} consumer ${l.consumer} subject ${l.subject} message ${l.messageId} after ${l.deliveries} deliveries: ${l.error}`,
        );
      return 0;
    }
    const { redriven, failed } = await redrive(connection, filter);
    for (const l of redriven) console.log(`re-driven #${l.seq}: ${l.subject} message ${l.messageId} (parked by ${l.consumer})`);
    for (const { deadLetter: l, error } of failed) console.error(`still parked #${l.seq}: ${l.subject} message ${l.messageId}: ${error}`);
    console.log(`${redriven.length} re-driven, ${failed.length} still parked.`);
    return failed.length ? 1 : 0;
  } finally {
    await connection.drain();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
