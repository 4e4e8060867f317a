// What the attack suite did, counted per test file and added up at the end (global-setup.ts):
// every HTTP request the tests send (fetch is counted in setup.ts), every expected denial a test
// checked, and what the Schemathesis runs reported.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface Counts {
  requests: number;
  denials: number;
  schemathesis: { runs: number; operations: number; cases: number; failures: number; serverErrors: number };
  notes: string[];
}

export const counts: Counts = {
  requests: 0,
  denials: 0,
  schemathesis: { runs: 0, operations: 0, cases: 0, failures: 0, serverErrors: 0 },
  notes: [],
};

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'security');

/** One expected denial was checked (the assertion itself is the caller's). */
export function denialChecked(n = 1): void {
  counts.denials += n;
}

export function writeCounts(testFile: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `counts-${basename(testFile, '.test.ts')}.json`), `${JSON.stringify(counts, null, 2)}\n`);
}
