// The kit's clock (issue 27, docs/adr/0072): the machine's time unless SIMULATED_CLOCK_FILE names a file with an
// offset, which make seed-market moves; only the local stack's app.sh sets it, never compose or the Helm chart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return fs.statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('the simulated clock', () => {
  it('follows the offset in its file, and real time without one', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-clock-')), 'clock.json');
    process.env.SIMULATED_CLOCK_FILE = file;
    const { now, CLOCK_FILE_READ_MS } = await import('../../services/kit/src/clock.js');
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1_000);
    const week = 7 * 86_400_000;
    fs.writeFileSync(file, JSON.stringify({ offset_ms: -week }));
    await new Promise((resolve) => setTimeout(resolve, CLOCK_FILE_READ_MS + 20));
    expect(Math.abs(now().getTime() - (Date.now() - week))).toBeLessThan(1_000);
    // A file that is not an offset is no offset.
    fs.writeFileSync(file, 'not json');
    await new Promise((resolve) => setTimeout(resolve, CLOCK_FILE_READ_MS + 20));
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1_000);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('is set by the local stack only: never in docker-compose.yml or the Helm chart', () => {
    const deployed = [path.join(root, 'docker-compose.yml'), ...filesUnder(path.join(root, 'infra/helm')), ...filesUnder(path.join(root, 'infra/compose'))];
    const setting = deployed.filter((file) => fs.readFileSync(file, 'utf8').includes('SIMULATED_CLOCK_FILE'));
    expect(setting).toEqual([]);
    expect(fs.readFileSync(path.join(root, 'infra/local/app.sh'), 'utf8')).toContain('SIMULATED_CLOCK_FILE');
  });
});
