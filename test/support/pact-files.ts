// Where a consumer test writes its pact (issue 23): contracts/pacts/ holds the reviewed pacts that providers are
// verified against. A test run writes to a scratch folder and checks the committed pact says the same; with
// PACT_WRITE=1 (make pacts) it writes contracts/pacts/ itself, and the diff shows what the consumer now needs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const committed = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../contracts/pacts');

export function pactDir(): string {
  return process.env.PACT_WRITE === '1' ? committed : fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-pact-'));
}

/** What differs between the pact just written in `dir` and the committed one (nothing when writing in place). */
export function pactDrift(dir: string, file: string): string | null {
  if (dir === committed) return null;
  const fresh = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
  const kept = fs.existsSync(path.join(committed, file)) ? (JSON.parse(fs.readFileSync(path.join(committed, file), 'utf8')) as Record<string, unknown>) : {};
  const body = (pact: Record<string, unknown>) => JSON.stringify({ interactions: pact.interactions, messages: pact.messages });
  fs.rmSync(dir, { recursive: true, force: true });
  return body(fresh) === body(kept) ? null : `contracts/pacts/${file} is not what the consumer test now expects: run make pacts and review the diff`;
}
