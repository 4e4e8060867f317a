// The release store the gateway serves (infra/local/lib.sh: TUBER_RELEASES) for tests that release remotes:
// they record releases in a scratch file, not the checkout's releases.json, and put the live pointer back.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../../infra/release/remote.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const releaseStoreDir =
  process.env.TUBER_RELEASES ?? execFileSync('bash', ['-c', 'source infra/local/lib.sh && printf %s "$TUBER_RELEASES"'], { cwd: root, encoding: 'utf8' });

const POINTER_FILES = ['remotes.json', 'history.json'];

/**
 * The store as a test uses it: releases recorded in a scratch folder, the live pointer and history as they
 * are now kept. `restore()` puts them back and removes the scratch folder; `scratch` is for the test's files.
 */
export function testStore(prefix: string): { store: Store; scratch: string; restore(): void } {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const kept = new Map<string, string | null>();
  for (const file of POINTER_FILES) {
    const full = path.join(releaseStoreDir, file);
    kept.set(file, fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null);
  }
  return {
    store: { dir: releaseStoreDir, root, recordFile: path.join(scratch, 'releases.json') },
    scratch,
    restore() {
      for (const [file, text] of kept) {
        const full = path.join(releaseStoreDir, file);
        if (text === null) fs.rmSync(full, { force: true });
        else fs.writeFileSync(full, text);
      }
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Starts a remote's release history afresh (the rest of the store's history stays). */
export function clearHistory(remote: string): void {
  const file = path.join(releaseStoreDir, 'history.json');
  const history = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>) : {};
  fs.writeFileSync(file, JSON.stringify({ ...history, [remote]: [] }));
}
