// The NATS permissions (infra/nats/permissions.json, docs/adr/0017) follow the code: every durable
// consumer a service starts and every event it publishes is granted to that service's user, and
// nothing more. A new consumer or event fails here first, with the line to add.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as contracts from '@tuber/contracts';
import { ALL_EVENTS, EVENT_STREAM, EVENT_SUBJECTS } from '@tuber/contracts';
import { DEAD_LETTER_STREAM, DEAD_LETTER_SUBJECTS, deadLetterSubject } from '../../services/kit/src/events.js';

/** infra/nats/render.mjs, a plain ES module (nats.sh runs it with node). */
const { permissionsOf, render } = (await import(new URL('../../infra/nats/render.mjs', import.meta.url).href)) as {
  permissionsOf: (service: string) => { publish: string[]; subscribe: string[] };
  render: (options: { withTestUser: boolean }) => string;
};

const repo = fileURLToPath(new URL('../..', import.meta.url));
const table = JSON.parse(readFileSync(join(repo, 'infra/nats/permissions.json'), 'utf8')) as {
  stream: string;
  services: Record<string, { publishes: string[]; consumers: Record<string, string>; replays?: Record<string, string> }>;
  testUser: string;
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

const subjectOf = (name: string) => {
  const event = (contracts as Record<string, unknown>)[name] as { subject?: string } | undefined;
  expect(event?.subject, `${name} is an event of @tuber/contracts`).toBeDefined();
  return event!.subject!;
};

/** A durable name kept in a constant table, `durable: NAMES.key` with `const NAMES = { key: 'name', … }`. */
const durableFromTable = (code: string, table: string, key: string) => {
  const body = new RegExp(`\\b${table}\\s*=\\s*\\{([^}]*)\\}`).exec(code)?.[1];
  const name = body && new RegExp(`\\b${key}\\s*:\\s*'([^']+)'`).exec(body)?.[1];
  expect(name, `durable ${table}.${key}: no \`const ${table} = { ${key}: '…' }\` in the service's sources`).toBeDefined();
  return name!;
};

/** NATS subject matching: `*` one token, `>` the rest. */
const matches = (pattern: string, subject: string) => {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
};

const services = readdirSync(join(repo, 'services')).filter(
  (name) => name !== 'kit' && statSync(join(repo, 'services', name)).isDirectory(),
);

describe('infra/nats/permissions.json', () => {
  it('names the stream the contracts use', () => {
    expect(table.stream).toBe(EVENT_STREAM);
  });

  for (const service of services) {
    const code = sources(join(repo, 'services', service, 'src')).join('\n');
    const consumed = [...code.matchAll(/\.consume\(\s*(\w+)\s*,\s*\{\s*durable:\s*(?:'([^']+)'|(\w+)\.(\w+))/g)].map(
      ([, event, literal, table, key]) => ({
        durable: literal ?? durableFromTable(code, table!, key!),
        subject: subjectOf(event!),
      }),
    );
    // A table of events and their durables, started in a loop: `{ event: X, durable: '…', replay: '…' }`.
    const tabled = [...code.matchAll(/\{\s*event:\s*(\w+),\s*durable:\s*'([^']+)'(?:,\s*replay:\s*'([^']+)')?\s*\}/g)].map(
      ([, event, durable, replay]) => ({ durable: durable!, replay, subject: subjectOf(event!) }),
    );
    consumed.push(...tabled.map(({ durable, subject }) => ({ durable, subject })));
    const replays = Object.fromEntries(tabled.filter((t) => t.replay).map(({ replay, subject }) => [replay!, subject]));
    const published = [...code.matchAll(/(?:pendingEvent|\.publish)\(\s*(\w+)\s*,/g)].map(([, event]) => subjectOf(event!));
    const granted = table.services[service];

    it(`${service}: grants exactly the durable consumers the code starts, on their subjects`, () => {
      const expected = Object.fromEntries(consumed.map(({ durable, subject }) => [durable, subject]));
      expect(granted?.consumers ?? {}, `services.${service}.consumers in infra/nats/permissions.json`).toEqual(expected);
      // Replay durables (a rebuild from the stream's start, docs/adr/0072) are granted as replays, with their DELETE.
      expect(granted?.replays ?? {}, `services.${service}.replays`).toEqual(replays);
    });

    it(`${service}: may publish every event the code publishes, and only its own context's`, () => {
      for (const subject of published) {
        expect(
          granted?.publishes.some((pattern) => matches(pattern, subject)),
          `${service} publishes ${subject}: add it to services.${service}.publishes`,
        ).toBe(true);
      }
      // No two services may publish the same event.
      for (const [other, rights] of Object.entries(table.services)) {
        if (other === service) continue;
        for (const subject of published)
          expect(
            rights.publishes.some((p) => matches(p, subject)),
            `${other} may publish ${subject}`,
          ).toBe(false);
      }
    });
  }

  it('grants each service the signals its code sends and hears, under its own name, outside the stream (ADR 0067)', () => {
    for (const service of services) {
      const code = sources(join(repo, 'services', service, 'src')).join('\n');
      const used = [...new Set([...code.matchAll(/'(signal\.[A-Za-z0-9_.*>-]+)'/g)].map(([, subject]) => subject!))];
      const granted = (table.services[service] as { signals?: string[] } | undefined)?.signals ?? [];
      for (const subject of used)
        expect(
          granted.some((pattern) => matches(pattern, subject)),
          `${service} uses the signal ${subject}: add it to services.${service}.signals`,
        ).toBe(true);
      for (const pattern of granted) {
        expect(pattern.startsWith(`signal.${service}.`), `${service} may signal only under signal.${service}.`).toBe(true);
        expect(matches(EVENT_SUBJECTS, pattern.replace('>', 'x')), `${pattern} would be kept by the event stream`).toBe(false);
        expect(permissionsOf(service).subscribe).toContain(pattern);
        expect(permissionsOf(service).publish).toContain(pattern);
      }
    }
    expect((table.services.orders as { signals?: string[] }).signals).toEqual(['signal.orders.>']);
  });

  it('every event has exactly one publisher', () => {
    for (const event of ALL_EVENTS) {
      const publishers = Object.entries(table.services).filter(([, rights]) => rights.publishes.some((p) => matches(p, event.subject)));
      expect(
        publishers.map(([name]) => name),
        event.subject,
      ).toHaveLength(1);
    }
  });

  it('lets each service park dead letters of its own consumers only, on the stream and subjects the kit uses', () => {
    const dead = (table as unknown as { deadLetters: { stream: string; subjectPrefix: string } }).deadLetters;
    expect(dead.stream).toBe(DEAD_LETTER_STREAM);
    expect(`${dead.subjectPrefix}catalog-farmers`).toBe(deadLetterSubject('catalog-farmers'));
    expect(matches(DEAD_LETTER_SUBJECTS, deadLetterSubject('catalog-farmers'))).toBe(true);
    for (const service of Object.keys(table.services)) {
      const { publish } = permissionsOf(service);
      const own = Object.keys(table.services[service]!.consumers).map(deadLetterSubject);
      expect(publish.filter((s) => s.startsWith(dead.subjectPrefix)).sort(), service).toEqual(own.sort());
      expect(publish, service).toContain(`$JS.API.STREAM.CREATE.${DEAD_LETTER_STREAM}`);
    }
  });

  it('renders users whose rights are the table: own events, own durables, own inbox, no wildcard on another service', () => {
    const catalog = permissionsOf('catalog');
    expect(catalog.subscribe).toEqual(['_INBOX_catalog.>']);
    expect(catalog.publish).toContain('tuber.catalog.>');
    expect(catalog.publish).toContain('$JS.API.CONSUMER.CREATE.TUBER.catalog-farmers.tuber.profile.farmer.changed.v1');
    expect(catalog.publish).toContain('$JS.ACK.TUBER.catalog-farmers.>');
    expect(catalog.publish.filter((s) => s.startsWith('tuber.'))).toEqual(['tuber.catalog.>']);
    expect(catalog.publish.some((s) => /\.\*(\.|$)|^\$JS\.API\.>$|^>$/.test(s))).toBe(false);
    const conf = render({ withTestUser: false });
    expect(conf).toContain('password: $NATS_CATALOG_PASSWORD');
    expect(conf).not.toContain(table.testUser);
    expect(render({ withTestUser: true })).toContain(`user: "${table.testUser}", password: $NATS_TUBER_TEST_PASSWORD`);
  });
});
