// Events that ride inside the document they belong to: the write and its events are one atomic
// document update (FerretDB has no multi-document transactions); publishing happens after, and
// anything left unpublished by a crash is published again on start. Message ids make the
// re-publish harmless.
import { Schema, type Model } from 'mongoose';
import { ALL_EVENTS, type EventContract, type EventPayload } from '@tuber/contracts';
import type { EventBus } from './events.js';

export interface PendingEvent {
  subject: string;
  message_id: string;
  payload: unknown;
}

export const OutboxField = {
  type: [new Schema({ subject: String, message_id: String, payload: Schema.Types.Mixed }, { _id: false })],
  default: [],
};

export function pendingEvent<E extends EventContract>(event: E, payload: EventPayload<E>, messageId: string): PendingEvent {
  return { subject: event.subject, message_id: messageId, payload };
}

const contractFor = (subject: string) => ALL_EVENTS.find((event) => event.subject === subject);

type OutboxModel = Model<any>;

/** Publishes the pending events of one document, removing each once the stream has it. */
export async function flushOutbox(model: OutboxModel, filter: Record<string, unknown>, bus: EventBus): Promise<number> {
  const doc = await model.findOne(filter, { outbox: 1 }).lean<{ outbox?: PendingEvent[] }>();
  let published = 0;
  for (const pending of doc?.outbox ?? []) {
    const contract = contractFor(pending.subject);
    if (contract) {
      await bus.publish(contract, pending.payload as never, pending.message_id);
      published += 1;
    }
    await model.updateOne(filter, { $pull: { outbox: { message_id: pending.message_id } } });
  }
  return published;
}

/** On start: publish whatever a previous run wrote but did not get to publish. */
export async function flushAllOutboxes(model: OutboxModel, key: string, bus: EventBus): Promise<number> {
  const docs = await model.find({ 'outbox.0': { $exists: true } }, { [key]: 1 }).lean<Record<string, unknown>[]>();
  let published = 0;
  for (const doc of docs) published += await flushOutbox(model, { [key]: doc[key] }, bus);
  return published;
}
