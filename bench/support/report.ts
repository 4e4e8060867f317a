// Every benchmark records what it measured here; `bench/render.ts` turns the records of one
// `make bench` run into docs/performance.md. A record is one row of the issue's table (P1…P9):
// the measure, the baseline measured in the same run, the ratio and whether the target was met.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BenchRow {
  /** What was measured, e.g. "feed first page through the gateway". */
  label: string;
  /** The figure itself, with its unit, e.g. "1834 req/s" or "p50 12 ms". */
  value: string;
  /** The baseline's figure in the same run, when the row compares against one. */
  baseline?: string;
  /** value ÷ baseline (or the inverse for latency; say which in `target`). */
  ratio?: number;
  /** The target as the issue words it, e.g. "≥ 0.80× req/s". */
  target?: string;
  /** Whether the target was met (undefined: reported only). */
  pass?: boolean;
}

export interface BenchRecord {
  /** The issue's row id: P1 … P9 (or another short id for extra figures, e.g. RSS). */
  id: string;
  title: string;
  /** How it was measured: tool, connections, duration, data size. */
  method: string;
  rows: BenchRow[];
  /** Why a target was missed, what was changed because of it, caveats. */
  notes?: string[];
}

const dir = process.env.BENCH_RESULTS ?? join(fileURLToPath(new URL('../..', import.meta.url)), '.run', 'bench');

/** Writes one record for the renderer and prints it, so a bench run alone still shows its figures. */
export function report(record: BenchRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${record.id}.json`), JSON.stringify({ ...record, at: new Date().toISOString() }, null, 2));
  console.log(`\n${record.id} — ${record.title}\n  method: ${record.method}`);
  for (const row of record.rows) {
    const verdict = row.pass === undefined ? '' : row.pass ? '  PASS' : '  MISS';
    const ratio = row.ratio === undefined ? '' : `  ratio ${row.ratio.toFixed(2)}`;
    console.log(
      `  ${row.label}: ${row.value}${row.baseline ? ` (baseline ${row.baseline})` : ''}${ratio}${row.target ? `  target ${row.target}` : ''}${verdict}`,
    );
  }
  for (const note of record.notes ?? []) console.log(`  note: ${note}`);
}
