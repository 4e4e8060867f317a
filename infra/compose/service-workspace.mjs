// Used inside services/<name>/Dockerfile (docs/adr/0008) to install one service from the single root
// lockfile without `npm ci`, which refuses that lockfile (it cannot list other platforms' builds of
// dev tools). Three steps, run from the workspace root:
//   narrow services/<name>   keep only that service and the @tuber workspaces it imports, plus the
//                            TypeScript compiler and @types/* needed to build them
//   verify                   after `npm install`: fail unless every installed package is the exact
//                            version the root lockfile pins, so the image matches what tests ran
//   bundle <dir>             after `tsc -b` and `npm prune --omit=dev`: verify again, then copy what
//                            the service needs at run time (manifests, dist/, node_modules/) into <dir>
import { copyFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT_LOCKFILE_COPY = 'package-lock.root.json';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const fail = (message) => {
  console.error(`service-workspace: ${message}`);
  process.exit(1);
};

/** The workspaces `service` needs: itself and, transitively, every @tuber/* package it depends on. */
function workspaceClosure(rootManifest, service) {
  const dirByName = new Map();
  for (const dir of rootManifest.workspaces ?? []) {
    if (existsSync(join(dir, 'package.json'))) dirByName.set(readJson(join(dir, 'package.json')).name, dir);
  }
  if (![...dirByName.values()].includes(service)) fail(`${service}/package.json is missing or not a workspace of the root package.json`);
  const needed = new Set();
  const visit = (dir) => {
    if (needed.has(dir)) return;
    needed.add(dir);
    for (const name of Object.keys(readJson(join(dir, 'package.json')).dependencies ?? {})) {
      if (!name.startsWith('@tuber/')) continue;
      const dependency = dirByName.get(name);
      if (!dependency) fail(`${dir} needs ${name}: COPY its package.json before running narrow`);
      visit(dependency);
    }
  };
  visit(service);
  // Keep the root's order so npm sees the same workspace list shape.
  return rootManifest.workspaces.filter((dir) => needed.has(dir));
}

function narrow(service) {
  if (!service) fail('usage: narrow services/<name>');
  const root = readJson('package.json');
  const buildTools = Object.fromEntries(
    Object.entries(root.devDependencies ?? {}).filter(([name]) => name === 'typescript' || name.startsWith('@types/')),
  );
  if (!buildTools.typescript) fail('the root package.json has no typescript devDependency to compile with');
  const narrowed = {
    name: root.name,
    private: true,
    type: root.type,
    workspaces: workspaceClosure(root, service),
    devDependencies: buildTools,
  };
  copyFileSync('package-lock.json', ROOT_LOCKFILE_COPY);
  writeFileSync('package.json', `${JSON.stringify(narrowed, null, 2)}\n`);
  console.log(`service-workspace: ${service} with ${narrowed.workspaces.join(', ')}; build tools ${Object.keys(buildTools).join(', ')}`);
}

/** name@version of every package a lockfile (or npm's hidden node_modules/.package-lock.json) lists. */
function lockedPackages(lockfile) {
  const found = new Set();
  for (const [path, entry] of Object.entries(readJson(lockfile).packages ?? {})) {
    const at = path.lastIndexOf('node_modules/');
    if (at < 0 || entry.link) continue;
    found.add(`${path.slice(at + 'node_modules/'.length)}@${entry.version}`);
  }
  return found;
}

function verify() {
  if (!existsSync(ROOT_LOCKFILE_COPY)) fail('run narrow before verify');
  const pinned = lockedPackages(ROOT_LOCKFILE_COPY);
  const installed = lockedPackages('node_modules/.package-lock.json');
  const unpinned = [...installed].filter((pkg) => !pinned.has(pkg)).sort();
  if (unpinned.length > 0) {
    fail(`installed versions the root package-lock.json does not pin (update the lockfile with npm install):\n  ${unpinned.join('\n  ')}`);
  }
  console.log(`service-workspace: ${installed.size} installed packages, all at the root lockfile's versions`);
}

function bundle(target) {
  if (!target) fail('usage: bundle <dir>');
  verify();
  const copy = (path) => cpSync(path, join(target, path), { recursive: true, verbatimSymlinks: true });
  const { workspaces } = readJson('package.json');
  copy('package.json');
  copy('node_modules');
  for (const dir of workspaces) {
    if (!existsSync(join(dir, 'dist'))) fail(`${dir}/dist is missing: compile with tsc -b first`);
    copy(join(dir, 'package.json'));
    copy(join(dir, 'dist'));
    // npm nests a dependency under a workspace when the workspaces need different versions of it.
    if (existsSync(join(dir, 'node_modules'))) copy(join(dir, 'node_modules'));
  }
  console.log(`service-workspace: bundled ${workspaces.join(', ')} into ${target}`);
}

const [command, argument] = process.argv.slice(2);
if (command === 'narrow') narrow(argument);
else if (command === 'verify') verify();
else if (command === 'bundle') bundle(argument);
else fail('usage: service-workspace.mjs narrow services/<name> | verify | bundle <dir>');
