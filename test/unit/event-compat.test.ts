// Can a producer or a consumer of an event ship alone (issue 23, docs/delivery.md)? A consumer parks an event
// its contract's schema refuses (services/kit/src/events.ts), so the schemas decide, both ways:
// - today's consumers take the events the last release's producers publish (its recorded samples);
// - the last release's consumers take the events today's producers publish (today's recorded samples);
// - every event subject of the last release is still known today (a version is replaced by publishing the
//   new one beside it, never by renaming it).
// The last release's schemas and samples are read from git (contracts/events/ at its commit).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ALL_EVENTS } from '@tuber/contracts';
import { EVENTS_DIR, samplesFile, schemaFile, schemaText } from '../../infra/release/event-contracts.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };
// Events cross every service; the release they are checked against is the oldest commit any service runs.
const SERVICES = ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders'];
const commits = [...new Set(SERVICES.map((service) => releases.units[service]!.commit))];

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

function git(...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** The release's file under contracts/events/, or today's when the release predates the files and the contracts have not changed since. */
function atRelease(commit: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  try {
    return git('show', `${commit}:${relative}`);
  } catch {
    // The release has the files, but not this one: a subject new since the release, which it neither published nor consumed.
    if (releaseHasEventFiles(commit)) return undefined;
    try {
      execFileSync('git', ['-C', root, 'diff', '--quiet', commit, 'HEAD', '--', 'contracts/src'], { stdio: 'ignore' });
    } catch {
      throw new Error(`release ${commit.slice(0, 7)} has no ${relative} and contracts/src changed since: cannot tell what it published`);
    }
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  }
}

function releaseHasEventFiles(commit: string): boolean {
  try {
    git('ls-tree', '--name-only', `${commit}:contracts/events/`);
    return true;
  } catch {
    return false;
  }
}

function releasedSubjects(commit: string): string[] {
  try {
    return git('ls-tree', '--name-only', `${commit}:contracts/events/`)
      .split('\n')
      .filter((name) => name.endsWith('.schema.json'))
      .map((name) => name.replace(/\.schema\.json$/, ''));
  } catch {
    atRelease(commit, schemaFile(ALL_EVENTS[0]!.subject)); // throws when the stand-in is not allowed
    return ALL_EVENTS.map((event) => event.subject);
  }
}

/** Samples the payload schema refuses, each with the validator's first complaint. */
function refused(schema: object, samples: unknown[]): string[] {
  const validate = ajv.compile(schema);
  return samples.flatMap((sample, index) => (validate(sample) ? [] : [`sample ${index}: ${ajv.errorsText(validate.errors)}`]));
}

const samplesOf = (text: string | undefined): unknown[] => (text ? (JSON.parse(text) as unknown[]) : []);

describe('event contracts as files (npx tsx infra/release/event-contracts.ts writes them)', () => {
  it('match contracts/src/events.ts, and every recorded sample fits its schema today', () => {
    for (const event of ALL_EVENTS) {
      expect(fs.readFileSync(schemaFile(event.subject), 'utf8'), `${event.subject}: schema file out of date`).toBe(schemaText(event.payload));
      const samples = fs.existsSync(samplesFile(event.subject)) ? samplesOf(fs.readFileSync(samplesFile(event.subject), 'utf8')) : [];
      expect(refused(event.payload, samples), event.subject).toEqual([]);
    }
    const recorded = ALL_EVENTS.filter((event) => fs.existsSync(samplesFile(event.subject))).length;
    expect(recorded, 'events recorded from a real run').toBeGreaterThanOrEqual(11);
    expect(fs.readdirSync(EVENTS_DIR).filter((name) => name.endsWith('.schema.json')).length).toBe(ALL_EVENTS.length);
  });
});

for (const commit of commits) {
  describe(`events between today and release ${commit.slice(0, 7)}`, () => {
    it('every event subject of the release is still known today', () => {
      const today = new Set(ALL_EVENTS.map((event) => event.subject));
      expect(releasedSubjects(commit).filter((subject) => !today.has(subject))).toEqual([]);
    });

    it("today's consumers take the events the release's producers published", () => {
      const problems = ALL_EVENTS.flatMap((event) =>
        refused(event.payload, samplesOf(atRelease(commit, samplesFile(event.subject)))).map((problem) => `${event.subject} ${problem}`),
      );
      expect(problems).toEqual([]);
    });

    it("the release's consumers take the events today's producers publish", () => {
      const problems = ALL_EVENTS.flatMap((event) => {
        const releasedSchema = atRelease(commit, schemaFile(event.subject));
        if (!releasedSchema) return []; // a subject new since the release: its consumers do not listen to it
        const today = fs.existsSync(samplesFile(event.subject)) ? samplesOf(fs.readFileSync(samplesFile(event.subject), 'utf8')) : [];
        return refused(JSON.parse(releasedSchema) as object, today).map((problem) => `${event.subject} ${problem}`);
      });
      expect(problems).toEqual([]);
    });
  });
}

describe('the check can fail', () => {
  it('refuses a field made required, and a field the old schema does not allow', () => {
    const accepted = ALL_EVENTS.find((event) => event.subject === 'tuber.orders.request.accepted.v1')!;
    const samples = samplesOf(fs.readFileSync(samplesFile(accepted.subject), 'utf8'));
    const stricter = JSON.parse(schemaText(accepted.payload)) as { required: string[]; properties: Record<string, unknown> };
    stricter.properties.delivery_day = { type: 'string' };
    stricter.required.push('delivery_day');
    expect(refused(stricter, samples).join('\n')).toMatch(/delivery_day/);
    const closed = { ...(JSON.parse(schemaText(accepted.payload)) as object), additionalProperties: false };
    const withNewField = samples.map((sample) => ({ ...(sample as object), courier: 'GIG' }));
    expect(refused(closed, withNewField).join('\n')).toMatch(/additional properties/);
  });
});
