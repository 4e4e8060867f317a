// The security project's start and end: clears last run's counts, then adds up what every test
// file counted, prints it and writes test-artifacts/security-summary.json.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Counts } from './tally.js';

const artifacts = join(process.cwd(), 'test-artifacts');
const perFile = join(artifacts, 'security');

export default function setup() {
  rmSync(perFile, { recursive: true, force: true });
  mkdirSync(perFile, { recursive: true });
  return () => {
    const total: Counts & { files: string[] } = {
      requests: 0,
      denials: 0,
      schemathesis: { runs: 0, operations: 0, cases: 0, failures: 0, serverErrors: 0 },
      notes: [],
      files: [],
    };
    if (!existsSync(perFile)) return;
    for (const name of readdirSync(perFile).filter((n) => n.startsWith('counts-'))) {
      const counts = JSON.parse(readFileSync(join(perFile, name), 'utf8')) as Counts;
      total.files.push(name.slice('counts-'.length, -'.json'.length));
      total.requests += counts.requests;
      total.denials += counts.denials;
      for (const key of Object.keys(total.schemathesis) as (keyof Counts['schemathesis'])[]) {
        total.schemathesis[key] += counts.schemathesis[key];
      }
      total.notes.push(...counts.notes);
    }
    total.requests += total.schemathesis.cases;
    writeFileSync(join(artifacts, 'security-summary.json'), `${JSON.stringify(total, null, 2)}\n`);
    const s = total.schemathesis;
    console.log(
      [
        '',
        `security suite (${total.files.length} files): ${total.requests} requests sent (${s.cases} of them by Schemathesis), ${total.denials} denials checked`,
        `schemathesis: ${s.runs} runs, ${s.operations} operations, ${s.cases} cases, ${s.failures} failures, ${s.serverErrors} 5xx`,
        ...total.notes.map((note) => `  ${note}`),
        `numbers: test-artifacts/security-summary.json`,
      ].join('\n'),
    );
  };
}
