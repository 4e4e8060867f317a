// Releases of the remotes as pointer moves (docs/delivery.md). A release copies a build into the release store
// once, under its version, never to change again: $TUBER_RELEASES/<name>/<version>/, served by the gateway at
// /mf/<name>/<version>/. The live pointer is the store's remotes.json, which the shell reads at every start; a
// rollback or a canary only rewrites it (atomically), so it takes effect on the next page load, in a moment.
//   remote.ts release <name> [--commit <commit>]   publish this checkout's build (make build) or a commit's, and point at it
//   remote.ts rollback <name>                      point back at the version live before the current one
//   remote.ts canary <name> <version> <percent>    a released version for <percent> % of signed-in people
//   remote.ts canary-off <name>
//   remote.ts status
//   remote.ts sync                                 name every remote in the live pointer (gateway.sh start runs it)
// Each release and rollback also records the unit's version and commit in releases.json (commit it), under the
// remote's unit name (unit-versions.ts: the moderation remote is the unit moderation-ui).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontendUnit, writeUnitVersions } from './unit-versions.js';

export const REMOTES = ['landing', 'buyer', 'farmer', 'moderation'] as const;
export type RemoteName = (typeof REMOTES)[number];

/** A version: the release commit's day and commit, plus the build's hash when the tree had changes. */
export const VERSION = /^[0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9a-f]{7,40}(-[0-9a-f]{8})?$/;

export interface PointerItem {
  name: string;
  entry: string;
  version?: string;
  canary?: { entry: string; version: string; percent: number };
}

/** What the store keeps beside each version: where it came from. */
interface VersionRecord {
  version: string;
  commit: string;
  contentHash: string;
  publishedAt: string;
}

export interface Store {
  dir: string;
  /** The checkout (frontends/<name>/dist, infra/release/build-frontends.sh). */
  root: string;
  /** Where releases and rollbacks are recorded: the checkout's releases.json (tests give another). */
  recordFile: string;
}

const entryOf = (name: string, version: string) => `/mf/${name}/${version}/mf-manifest.json`;

function isRemote(name: string | undefined): name is RemoteName {
  return REMOTES.includes(name as RemoteName);
}

function readJson<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Writes by rename, so a reader (nginx, the shell) sees the old file or the new one, never half of one. */
function writeJsonAtomically(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644 });
  fs.renameSync(temp, file);
}

/** A build's content hash: every file's path and bytes, in order. */
export function contentHash(dir: string): string {
  const hash = createHash('sha256');
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((file) => fs.statSync(path.join(dir, file)).isFile() && !file.startsWith('.')).sort();
  for (const file of files) hash.update(file).update('\0').update(fs.readFileSync(path.join(dir, file))).update('\0');
  return hash.digest('hex');
}

/** A remote before its first release: at its unversioned prefix, served by its own server. */
const unreleased = (name: RemoteName): PointerItem => ({ name, entry: `/mf/${name}/mf-manifest.json` });

/**
 * The live pointer; before any release, the shell's own list (every remote at its unversioned prefix). A remote
 * the pointer does not name yet (added after the store's first release, as the moderation desk was) is in it at
 * its unversioned prefix, as every remote was before its own first release.
 */
export function readPointer(store: Store): PointerItem[] {
  const live = readJson<PointerItem[] | null>(path.join(store.dir, 'remotes.json'), null);
  if (!live) return REMOTES.map(unreleased);
  return [...live, ...REMOTES.filter((name) => !live.some((item) => item.name === name)).map(unreleased)];
}

/**
 * Writes the live pointer again when it lacks a remote (readPointer adds it at its unversioned prefix), so the
 * shell finds a remote added since the store's first release. Nothing to do without a pointer: the shell's own
 * remotes.json is served then. Returns the remotes added.
 */
export function syncPointer(store: Store): string[] {
  const file = path.join(store.dir, 'remotes.json');
  const live = readJson<PointerItem[] | null>(file, null);
  if (!live) return [];
  const pointer = readPointer(store);
  const added = pointer.filter((item) => !live.some((known) => known.name === item.name)).map((item) => item.name);
  if (added.length > 0) writeJsonAtomically(file, pointer);
  return added;
}

type History = Partial<Record<RemoteName, string[]>>;
const historyFile = (store: Store) => path.join(store.dir, 'history.json');

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Records what is live for a unit (the remote's unit name: moderation-ui for moderation) in the checkout's releases.json. */
function recordRelease(store: Store, name: RemoteName, record: VersionRecord): void {
  const file = store.recordFile;
  const releases = readJson<{ units: Record<string, { version: string; commit: string }> }>(file, { units: {} });
  releases.units[frontendUnit(name)] = { version: record.version, commit: record.commit };
  writeJsonAtomically(file, releases);
}

function versionRecord(store: Store, name: RemoteName, version: string): VersionRecord {
  const record = readJson<VersionRecord | null>(path.join(store.dir, name, version, '.release.json'), null);
  if (!record) throw new Error(`${name} has no released version ${version} in ${store.dir} (see: status)`);
  return record;
}

/** Copies a build into the store under its version, once; the same version with other contents is refused. */
export function publish(store: Store, name: RemoteName, dist: string, commit: string, version: string): VersionRecord {
  if (!fs.existsSync(path.join(dist, 'mf-manifest.json'))) throw new Error(`${dist} is not a remote's build (no mf-manifest.json): run make build`);
  if (!VERSION.test(version)) throw new Error(`"${version}" is not a version (like 2026.11.28-31bf8c8)`);
  const target = path.join(store.dir, name, version);
  const hash = contentHash(dist);
  if (fs.existsSync(target)) {
    const existing = versionRecord(store, name, version);
    if (existing.contentHash !== hash) throw new Error(`${name} ${version} is already released with other contents; a version never changes`);
    return existing;
  }
  const temp = `${target}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  fs.cpSync(dist, temp, { recursive: true });
  const record: VersionRecord = { version, commit, contentHash: hash, publishedAt: new Date().toISOString() };
  fs.writeFileSync(path.join(temp, '.release.json'), `${JSON.stringify(record, null, 2)}\n`);
  // Readable by the gateway's unprivileged workers.
  for (const file of fs.readdirSync(temp, { recursive: true }) as string[]) fs.chmodSync(path.join(temp, file), fs.statSync(path.join(temp, file)).isDirectory() ? 0o755 : 0o644);
  fs.chmodSync(temp, 0o755);
  fs.renameSync(temp, target);
  return record;
}

/** Points the live remotes.json at `version` of `name` (ending any canary of it) and records it. */
export function pointAt(store: Store, name: RemoteName, version: string, { history = true } = {}): void {
  const record = versionRecord(store, name, version);
  const pointer = readPointer(store).map((item) => (item.name === name ? { name, entry: entryOf(name, version), version } : item));
  writeJsonAtomically(path.join(store.dir, 'remotes.json'), pointer);
  if (history) {
    const all = readJson<History>(historyFile(store), {});
    const list = all[name] ?? [];
    if (list[list.length - 1] !== version) all[name] = [...list, version];
    writeJsonAtomically(historyFile(store), all);
  }
  recordRelease(store, name, record);
}

/** A commit's release version: its commit day and short hash (2026.11.28-31bf8c8). */
const commitVersion = (store: Store, commit: string): string =>
  `${git(store.root, 'log', '-1', '--format=%cd', '--date=format:%Y.%m.%d', commit)}-${commit.slice(0, 7)}`;

export function release(store: Store, name: RemoteName, commitArg?: string): VersionRecord {
  let dist: string;
  let commit: string;
  let version: string;
  if (commitArg) {
    commit = git(store.root, 'rev-parse', '--verify', `${commitArg}^{commit}`);
    const built = execFileSync('bash', [path.join(store.root, 'infra/release/build-frontends.sh'), commit, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    dist = path.join(built.trim().split('\n').pop()!, name);
    version = commitVersion(store, commit);
  } else {
    commit = git(store.root, 'rev-parse', 'HEAD');
    dist = path.join(store.root, 'frontends', name, 'dist');
    version = commitVersion(store, commit);
    // A build of a tree with changes is not HEAD's: its version says so, with the build's own hash.
    if (git(store.root, 'status', '--porcelain', '--', 'frontends', 'contracts', 'package-lock.json') !== '') {
      if (!fs.existsSync(dist)) throw new Error(`frontends/${name}/dist does not exist: run make build`);
      version += `-${contentHash(dist).slice(0, 8)}`;
    }
  }
  const record = publish(store, name, dist, commit, version);
  pointAt(store, name, record.version);
  return record;
}

export function rollback(store: Store, name: RemoteName): { from: string; to: string } {
  const all = readJson<History>(historyFile(store), {});
  const list = all[name] ?? [];
  if (list.length < 2) throw new Error(`${name} has no earlier release to roll back to (released: ${list.join(', ') || 'none'})`);
  const from = list[list.length - 1]!;
  const to = list[list.length - 2]!;
  pointAt(store, name, to, { history: false });
  all[name] = list.slice(0, -1);
  writeJsonAtomically(historyFile(store), all);
  return { from, to };
}

export function canary(store: Store, name: RemoteName, version: string, percent: number): void {
  if (!Number.isInteger(percent) || percent < 1 || percent > 99) throw new Error('the canary share is a whole percent from 1 to 99');
  versionRecord(store, name, version);
  const pointer = readPointer(store);
  const item = pointer.find((candidate) => candidate.name === name);
  if (!item?.version) throw new Error(`${name} has no released live version yet: release one first`);
  if (item.version === version) throw new Error(`${version} is already ${name}'s live version`);
  item.canary = { entry: entryOf(name, version), version, percent };
  writeJsonAtomically(path.join(store.dir, 'remotes.json'), pointer);
}

export function canaryOff(store: Store, name: RemoteName): void {
  const pointer = readPointer(store).map((item) => {
    if (item.name !== name) return item;
    const { canary: _ended, ...rest } = item;
    return rest;
  });
  writeJsonAtomically(path.join(store.dir, 'remotes.json'), pointer);
}

export function status(store: Store): string {
  const all = readJson<History>(historyFile(store), {});
  return readPointer(store)
    .map((item) => {
      const released = fs.existsSync(path.join(store.dir, item.name)) ? fs.readdirSync(path.join(store.dir, item.name)).filter((v) => VERSION.test(v)) : [];
      return [
        `${item.name}: live ${item.version ?? '(this checkout’s build, unversioned)'}`,
        item.canary ? `  canary ${item.canary.version} for ${item.canary.percent} % of signed-in people` : '',
        `  released: ${released.join(', ') || 'none'}; rollback goes to: ${(all[item.name as RemoteName] ?? []).slice(-2, -1)[0] ?? 'nothing'}`,
      ]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n');
}

function main(argv: string[]): void {
  const dir = process.env.TUBER_RELEASES;
  if (!dir) throw new Error('TUBER_RELEASES is not set: run through make (release-remote, rollback-remote, canary-remote)');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const store: Store = { dir, root, recordFile: path.join(root, 'releases.json') };
  fs.mkdirSync(dir, { recursive: true });
  const [command, name, ...rest] = argv;
  const started = performance.now();
  const took = () => `${Math.round(performance.now() - started)} ms`;
  if (command === 'status') return void console.log(status(store));
  if (command === 'sync') {
    const added = syncPointer(store);
    if (added.length > 0) console.log(`the live remotes.json now names ${added.join(', ')} at the unversioned prefix (${took()})`);
    return;
  }
  if (!isRemote(name)) throw new Error(`name one of the remotes: ${REMOTES.join(', ')} (got "${name ?? ''}")`);
  if (command === 'release') {
    const commitFlag = rest.indexOf('--commit');
    const record = release(store, name, commitFlag >= 0 ? rest[commitFlag + 1] : undefined);
    writeUnitVersions(); // compose's release.env and the Helm overlay name it too
    console.log(`${name} ${record.version} is live (${took()}): /mf/${name}/${record.version}/; releases.json and its compose and Helm files updated, commit them`);
  } else if (command === 'rollback') {
    const { from, to } = rollback(store, name);
    console.log(`${name} rolled back from ${from} to ${to} in ${took()}: the next page load uses it`);
    writeUnitVersions();
    console.log('releases.json and its compose and Helm files updated, commit them');
  } else if (command === 'canary') {
    const [version, percent] = rest;
    canary(store, name, version ?? '', Number(percent));
    console.log(`${name} ${version} is the canary for ${percent} % of signed-in people (${took()})`);
  } else if (command === 'canary-off') {
    canaryOff(store, name);
    console.log(`${name}: canary off, everyone on the live version (${took()})`);
  } else throw new Error(`unknown command "${command ?? ''}": release, rollback, canary, canary-off, status or sync`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
