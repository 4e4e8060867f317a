// Every fault scenario records what it saw here; `test/chaos/render.ts` turns the records of one
// `make chaos` run into docs/reliability.md. One record per scenario (R1…R6 of issue 10, R7 of issue 12).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChaosRecord {
  /** The scenario id: R1 … R7. */
  id: string;
  title: string;
  /** The traffic, the fault and when it was injected. */
  method: string;
  /** Counts checked by key after the run. Leave out what does not apply to the scenario. */
  counts: {
    sent?: number;
    effects?: number;
    missing?: number;
    doubled?: number;
    redeliveries?: number;
    [other: string]: number | undefined;
  };
  /** Other observations, e.g. "503 while NATS was down: 212, 500: 0", "/ready back after 4.2 s". */
  observations?: string[];
  /** Whether every condition of the scenario held. */
  pass: boolean;
  /** What was changed because of this scenario, caveats. */
  notes?: string[];
}

const dir = process.env.CHAOS_RESULTS ?? join(fileURLToPath(new URL('../../..', import.meta.url)), '.run', 'chaos');

/** Writes one record for the renderer and prints it. */
export function reportChaos(record: ChaosRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${record.id}.json`), JSON.stringify({ ...record, at: new Date().toISOString() }, null, 2));
  const counts = Object.entries(record.counts)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(`\n${record.id} — ${record.title}: ${record.pass ? 'PASS' : 'FAIL'}\n  method: ${record.method}\n  counts: ${counts}`);
  for (const line of [...(record.observations ?? []), ...(record.notes ?? [])]) console.log(`  ${line}`);
}
