// Message pacts over NATS (issue 23, docs/delivery.md). A consumer service says, per event it follows, which
// fields its handler reads; the pact's description is the event's subject, so one provider answers every
// consumer's expectation of an event with the same message. The consumer side runs each expectation through
// the consumer's own contract check (what services/kit/src/events.ts does first) and, where it has one, its
// own pure rule; the provider side (test/system/pact-messages.test.ts, and the orders service's unit test)
// answers each subject with an event the provider really sends.
import { MatchersV3, MessageConsumerPact, synchronousBodyHandler } from '@pact-foundation/pact';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { EventContract, EventPayload } from '@tuber/contracts';
// The kit's event bus registers the string formats its contract check knows (date-time) when loaded.
import '@tuber/kit';
import { pactDir, pactDrift } from './pact-files.js';

export interface Expectation<E extends EventContract = EventContract> {
  event: E;
  /** The provider state the message is sent in, when the consumer needs a particular kind of it. */
  state?: string;
  /** The consumer's example of the event. */
  example: EventPayload<E>;
  /**
   * The optional fields the consumer relies on. Every required field of its contract is needed anyway:
   * the kit's contract check parks an event that lacks one, before any handler reads it.
   */
  reads?: string[];
  /** What the consumer's own code makes of the message, beyond its contract check. */
  handle?: (payload: EventPayload<E>) => void;
}

/** Pact's description of an event: its subject, versioned (tuber.catalog.product.created.v1). */
export const described = (event: EventContract): string => event.subject;

/**
 * Writes `<consumer>-<provider>.json` from `expectations` (in a scratch folder unless PACT_WRITE=1) and
 * returns the drift check to run once every expectation was recorded.
 */
export function messagePact(consumer: string, provider: string) {
  const dir = pactDir();
  return {
    async expect<E extends EventContract>({ event, state, example, reads = [], handle }: Expectation<E>): Promise<void> {
      const content = contentOf(event.payload, example, reads);
      let pact = new MessageConsumerPact({ consumer, provider, dir, logLevel: 'error' });
      if (state) pact = pact.given(state);
      await pact
        .expectsToReceive(described(event))
        .withContent(content)
        .withMetadata({ subject: event.subject })
        .verify(
          synchronousBodyHandler((body: unknown) => {
            if (!Value.Check(event.payload, body)) {
              const first = [...Value.Errors(event.payload, body)][0];
              throw new Error(`${consumer} would park this ${event.subject}: ${first?.path ?? ''} ${first?.message ?? ''}`);
            }
            handle?.(body as EventPayload<E>);
          }),
        );
    },
    drift: (): string | null => pactDrift(dir, `${consumer}-${provider}.json`),
  };
}

const { boolean, eachLike, integer, like, nullValue, number, regex, string } = MatchersV3;
const ISO_TIME = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Pact matchers for `example` from the contract's schema: types, not values, so any event the contract
 * allows matches; a date-time by its form, a choice of literals by its alternatives, a choice of shapes by
 * the one the example has (null by null); an array by its first item's shape (an empty example: any array).
 * Optional properties only when listed in `reads`.
 */
export function contentOf(schema: TSchema, example: unknown, reads: string[] = []): Record<string, unknown> {
  const matcher = (s: TSchema, value: unknown): unknown => {
    if (s.format === 'date-time') return regex(ISO_TIME, String(value));
    if (Array.isArray(s.anyOf) && s.anyOf.every((option: TSchema) => option.const !== undefined)) {
      return regex(s.anyOf.map((option: TSchema) => escape(String(option.const))).join('|'), String(value));
    }
    // Either of several shapes (a number or null): the one the example has. Pact cannot say "either", so a
    // consumer that reads both kinds expects each in an example of its own.
    if (Array.isArray(s.anyOf)) {
      const branch = (s.anyOf as TSchema[]).find((option) => Value.Check(option, value));
      if (!branch) throw new Error(`the example ${JSON.stringify(value)} is none of ${JSON.stringify(s.anyOf)}`);
      return matcher(branch, value);
    }
    switch (s.type) {
      case 'null':
        return nullValue();
      case 'string':
        return string(String(value));
      case 'integer':
        return integer(Number(value));
      case 'number':
        return number(Number(value));
      case 'boolean':
        return boolean(Boolean(value));
      case 'array':
        return Array.isArray(value) && value.length > 0 ? eachLike(matcher(s.items as TSchema, value[0])) : like([]);
      case 'object':
        return contentOf(s, value);
      default:
        throw new Error(`no Pact matcher for the schema ${JSON.stringify(s)}`);
    }
  };
  const record = example as Record<string, unknown>;
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>)) {
    if (!required.has(name) && !reads.includes(name)) continue;
    if (record[name] === undefined) throw new Error(`the example lacks ${name}, which the consumer needs`);
    content[name] = matcher(property, record[name]);
  }
  return content;
}
