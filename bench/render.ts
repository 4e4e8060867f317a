// Writes docs/performance.md from the records the benchmarks left in .run/bench/*.json (see
// bench/support/report.ts): a summary of every row, then each record's method, figures and notes,
// the machine, and how to run it. Rows the issue names that have no record are listed as not run.
//   npx tsx bench/render.ts            # re-renders from the last records, runs nothing
import { cpus, totalmem } from 'node:os';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { BenchRecord, BenchRow } from './support/report.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dir = process.env.BENCH_RESULTS ?? join(repo, '.run', 'bench');
const out = process.env.BENCH_DOC ?? join(repo, 'docs', 'performance.md');

/** The rows of issue 10 §1, in order, and the extra records this suite writes (P10: issue 11; P11: issue 27). */
const EXPECTED: [string, string][] = [
  ['P1', 'Service bootstrap (kit, JWT off): hello route vs bare node:http'],
  ['P2', 'Product by id through the catalog service vs the native mongodb driver'],
  ['P3', 'Feed page through gateway + JWT + service vs the native-driver route'],
  ['P4', 'Feed page deep, and with a crowded hour, vs the first page'],
  ['P5', 'JWT-protected route with the JWKS warm vs the same route without auth'],
  ['P6', 'Photo upload with variants vs a plain MinIO put'],
  ['P7', 'Event publish through the outbox vs nats bench'],
  ['P8', 'First load of / and /dashboard/buyer (Lighthouse mobile) vs one bundle'],
  ['P8-bundles', 'What each front end ships (per remote bundle sizes)'],
  ['P9', 'Feed, product and "my products" at 1 k, 10 k, 100 k products'],
  ['P10', 'Searched, filtered and sorted feed pages vs the unfiltered first page at 1 k, 10 k, 100 k products'],
  ['P11', "Price guide lookup (issue 27, the farmer's price field) vs product by id, p50"],
  ['RSS', 'Resident memory of every process, idle and under load'],
];

type Stored = BenchRecord & { at?: string };

const records = new Map<string, Stored>();
if (existsSync(dir)) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    try {
      const record = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Stored;
      if (record.id && Array.isArray(record.rows)) records.set(record.id, record);
    } catch (err) {
      console.error(`skipping ${file}: ${(err as Error).message}`);
    }
  }
}

/**
 * A record with no file in this run (BENCH_ONLY, or records cleaned away) is read back from its section of
 * the current document, so rendering after one benchmark keeps the others' last figures (with their dates).
 */
function previousRecords(file: string): Stored[] {
  if (!existsSync(file)) return [];
  const found: Stored[] = [];
  const unescape = (text: string) => text.trim().replaceAll('\\|', '|');
  for (const section of readFileSync(file, 'utf8').split(/^## /m).slice(1)) {
    const head = /^(\S+) — (.*)$/m.exec(section);
    const method = /^Method: (.*)$/m.exec(section)?.[1];
    if (!head || !method) continue;
    const rows: BenchRow[] = [];
    for (const line of section.split('\n').filter((l) => l.startsWith('| ') && !/^\| -/.test(l))) {
      const cells = line
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map(unescape);
      if (cells.length !== 6 || cells[0] === 'measure') continue;
      const [label, baseline, value, ratio, target, met] = cells as [string, string, string, string, string, string];
      rows.push({
        label,
        value,
        ...(baseline ? { baseline } : {}),
        ...(ratio ? { ratio: Number(ratio.replace('×', '')) } : {}),
        ...(target ? { target } : {}),
        ...(met === 'yes' ? { pass: true } : met === '**no**' ? { pass: false } : {}),
      });
    }
    const notes = [...section.matchAll(/^- (.*)$/gm)].map((m) => m[1]!).filter(() => /^Notes:$/m.test(section));
    const at = /^Recorded (.*)\.$/m.exec(section)?.[1];
    found.push({ id: head[1]!, title: head[2]!.trim(), method, rows, ...(notes.length ? { notes } : {}), ...(at ? { at } : {}) });
  }
  return found;
}
for (const record of previousRecords(process.env.BENCH_PREVIOUS_DOC ?? out))
  if (!records.has(record.id) && record.id !== 'Machine' && record.id !== 'How') records.set(record.id, record);

const cell = (text: string | undefined) => (text ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ');
const verdict = (row: BenchRow) => (row.pass === undefined ? '—' : row.pass ? 'yes' : '**no**');
// A ratio that could not be computed (NaN, stored by JSON as null) is left blank.
const ratio = (row: BenchRow) => (typeof row.ratio === 'number' && Number.isFinite(row.ratio) ? `${row.ratio.toFixed(2)}×` : '');
const order = (id: string) => {
  const i = EXPECTED.findIndex(([e]) => e === id);
  return i === -1 ? EXPECTED.length : i;
};
const ids = [...new Set([...EXPECTED.map(([id]) => id), ...records.keys()])].sort((a, b) => order(a) - order(b) || a.localeCompare(b));

/** The summary keeps one line for RSS (the total); its section has every process. */
const summaryRows = (record: Stored) => (record.id === 'RSS' ? record.rows.filter((r) => r.label === 'all processes') : record.rows);

const lines: string[] = [];
const dates = [...records.values()]
  .map((r) => r.at)
  .filter(Boolean)
  .sort() as string[];
lines.push(
  '# Performance',
  '',
  '<!-- Generated by bench/render.ts from the records of `make bench` (.run/bench/*.json); do not edit by hand. -->',
  '',
  'Benchmarks of issue 10 §1: each figure is compared with a baseline measured **in the same run** on the same',
  'machine, so the ratio is what counts (the machine is shared and its absolute speed varies). Each section says',
  'how its figures were taken.',
  '',
  `Records from ${dates[0] ?? '—'} to ${dates.at(-1) ?? '—'}.`,
  '',
  '## Summary',
  '',
  '| row | measure | baseline | value | ratio | target | met |',
  '|---|---|---|---|---|---|---|',
);
for (const id of ids) {
  const record = records.get(id);
  if (!record) {
    lines.push(`| ${id} | ${cell(EXPECTED.find(([e]) => e === id)?.[1])} | | not run | | | — |`);
    continue;
  }
  for (const row of summaryRows(record)) {
    lines.push(
      `| ${id} | ${cell(row.label)} | ${cell(row.baseline)} | ${cell(row.value)} | ${ratio(row)} | ${cell(row.target)} | ${verdict(row)} |`,
    );
  }
}
const missed = [...records.values()].flatMap((r) => r.rows.filter((row) => row.pass === false).map((row) => `${r.id}: ${row.label}`));
const notRun = ids.filter((id) => !records.has(id));
lines.push(
  '',
  `Targets met: ${[...records.values()].flatMap((r) => r.rows).filter((r) => r.pass === true).length}; missed: ${missed.length}.`,
);
if (missed.length) lines.push(`Missed: ${missed.join('; ')}.`);
if (notRun.length) lines.push(`Not run: ${notRun.join(', ')}.`);

for (const id of ids) {
  const record = records.get(id);
  lines.push('', `## ${id} — ${record?.title ?? EXPECTED.find(([e]) => e === id)?.[1] ?? id}`, '');
  if (!record) {
    lines.push('Not run: no record in this run.');
    continue;
  }
  lines.push(`Method: ${record.method}`, '');
  if (record.at) lines.push(`Recorded ${record.at}.`, '');
  lines.push('| measure | baseline | value | ratio | target | met |', '|---|---|---|---|---|---|');
  for (const row of record.rows) {
    lines.push(
      `| ${cell(row.label)} | ${cell(row.baseline)} | ${cell(row.value)} | ${ratio(row)} | ${cell(row.target)} | ${verdict(row)} |`,
    );
  }
  if (record.notes?.length) {
    lines.push('', 'Notes:', '');
    for (const note of record.notes) lines.push(`- ${note}`);
  }
}

const cpu = cpus();
lines.push(
  '',
  '## Machine',
  '',
  `- ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GB RAM, shared with the rest of the stack and other work`,
  `- Node ${process.version}, ${process.platform}/${process.arch}`,
  `- rendered ${new Date().toISOString()}`,
  '',
  '## How to run',
  '',
  '`make bench` installs and builds what is missing, starts the local stack if it is not running, runs every',
  '`bench/*.bench.ts` one after another (a failing one does not stop the others; the run exits non-zero and names',
  'it), then renders this file. `npx tsx bench/render.ts` only re-renders from the last records in `.run/bench/`.',
  'Run a benchmark by hand under the shared lock: `flock /tmp/tuber-bench.lock npx tsx --conditions=@tuber/source bench/<name>.bench.ts`.',
  '',
  'Knobs (environment):',
  '',
  '- `BENCH_ONLY` — names of the benchmarks to run, e.g. `BENCH_ONLY="service-overhead events"` (default: all)',
  '- `BENCH_DURATION_S` — seconds per throughput measurement (P1/P5: 3 per round, P7: twice this, 10); `BENCH_ROUNDS` — alternating rounds for P1/P5 (default 5)',
  '- `LOG_LEVEL` — the log level of the servers P1/P5 start (default info, as the services run)',
  '- `P7_RATE`, `P7_LOW_RATE`, `P7_SECONDS`, `P7_WRITERS` — the commit→effect rates (500 and 100 events/s), their length (10 s; P7 stops starting writes after 1.5× of it) and the writers of the throughput run (16)',
  '- `RSS_LOAD_SECONDS`, `RSS_API_RATE` — length of the load for the RSS record (20 s) and its API rate (25 req/s)',
  '- `BENCH_RESULTS` — where records go (default `.run/bench`); `BENCH_DOC` — where this file goes',
  '- the catalog and front-end benchmarks name their own knobs at the top of their files',
  '',
);

// Formatted as the repository's prettier would (tables aligned), so the file passes its check as written.
writeFileSync(out, await format(lines.join('\n'), { ...(await resolveConfig(out)), parser: 'markdown' }));
console.log(`wrote ${out} (${records.size} records${notRun.length ? `; not run: ${notRun.join(', ')}` : ''})`);
