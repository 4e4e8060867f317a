// Where a consumer test writes its pact (issue 23): contracts/pacts/ holds the reviewed pacts that providers are
// verified against. A test run writes to a scratch folder and checks the committed pact says the same; with
// PACT_WRITE=1 (make pacts) it writes contracts/pacts/ itself, and the diff shows what the consumer now needs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const committed = path.join(root, 'contracts/pacts');

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

interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions?: unknown[];
  messages?: unknown[];
}

/**
 * The pacts naming `provider`, of one kind: today's (contracts/pacts/) and, for each consumer whose last
 * release (releases.json) already had that pact, the released one read from git into `scratch`.
 */
export function pactsOf(provider: string, kind: 'http' | 'message', scratch: string): { label: string; file: string }[] {
  const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };
  const found: { label: string; file: string }[] = [];
  for (const name of fs.readdirSync(committed).filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(committed, name);
    const pact = JSON.parse(fs.readFileSync(file, 'utf8')) as PactFile;
    if (pact.provider.name !== provider || !(kind === 'http' ? pact.interactions?.length : pact.messages?.length)) continue;
    found.push({ label: `today's ${pact.consumer.name}`, file });
    const commit = releases.units[pact.consumer.name]?.commit;
    if (!commit) continue;
    try {
      const text = execFileSync('git', ['-C', root, 'show', `${commit}:contracts/pacts/${name}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const released = path.join(scratch, `${commit.slice(0, 7)}-${name}`);
      fs.writeFileSync(released, text);
      found.push({ label: `${pact.consumer.name} ${commit.slice(0, 7)} (last release)`, file: released });
    } catch {
      // The consumer's release predates this pact (the first recorded release, 66492ab): nothing to verify yet.
    }
  }
  return found;
}

/** A scratch folder for released pacts, removed by the caller. */
export const pactScratch = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-pacts-'));
