// Can today's front ends ship alone? The names each side takes from the other at run time, checked against
// the last release (releases.json) in both directions (docs/adr/0054, docs/delivery.md):
// - today's remotes, and the @tuber/ui copy they bundle, under the last released shell: every name they
//   import from the shell contract must be provided by that shell (by its @tuber/shell-contract, or by its
//   @tuber/ui 0.1 when it is of the release before the split: src/legacy-host.ts);
// - the last released remotes under today's shell: every name they import from a shared key must be
//   provided by today's shell under that key.
// A static check of names, in milliseconds; test/e2e/version-skew.test.ts runs the journeys themselves.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { frontendUnit } from '../../infra/release/unit-versions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };
const REMOTES = ['landing', 'buyer', 'farmer', 'moderation'] as const;

/** A tree to read files from: today's working tree, or a released commit. */
interface Tree {
  label: string;
  read(file: string): string | undefined;
  list(dir: string): string[];
}

const today: Tree = {
  label: 'today',
  read: (file) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined),
  list: (dir) =>
    fs.existsSync(path.join(root, dir))
      ? (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[]).map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
      : [],
};

function released(commit: string): Tree {
  try {
    execFileSync('git', ['-C', root, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    throw new Error(`releases.json names ${commit}, which this clone does not have: fetch the full history (git fetch --unshallow)`);
  }
  return {
    label: `release ${commit.slice(0, 7)}`,
    read: (file) => {
      try {
        return execFileSync('git', ['-C', root, 'show', `${commit}:${file}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        return undefined;
      }
    },
    list: (dir) => execFileSync('git', ['-C', root, 'ls-tree', '-r', '--name-only', commit, dir], { encoding: 'utf8' }).split('\n').filter(Boolean),
  };
}

const sources = (tree: Tree, dir: string) => tree.list(dir).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));

/** Value (not type-only) names a file imports from `specifier`. */
function importedNames(text: string, specifier: string): string[] {
  const names: string[] = [];
  const quoted = specifier.replace(/[/.]/g, (c) => `\\${c}`);
  for (const match of text.matchAll(new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*'${quoted}'`, 'g'))) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]!.trim());
    }
  }
  if (new RegExp(`import\\s+\\*\\s+as\\s+\\w+\\s+from\\s*'${quoted}'`).test(text)) names.push('*');
  return names;
}

/** Value names a module exports, following `export * from` into the packages named in `packages`. */
function exportedNames(tree: Tree, file: string, packages: Record<string, string>): Set<string> {
  const text = tree.read(file);
  if (text === undefined) throw new Error(`${tree.label} has no ${file}`);
  const names = new Set<string>();
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/).pop()!.trim());
    }
  }
  for (const match of text.matchAll(/export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/g)) names.add(match[1]!);
  for (const match of text.matchAll(/export\s+\*\s+from\s+'([^']+)'/g)) {
    const target = packages[match[1]!];
    if (!target) throw new Error(`${file} re-exports everything of ${match[1]}, which this check cannot follow`);
    if (target.startsWith('react-router')) names.add('*'); // the router re-exports react-router: any name
    else exportedNames(tree, target, packages).forEach((name) => names.add(name));
  }
  return names;
}

/** What a shell of `tree` provides under each share key a remote may ask for. */
function shellProvides(tree: Tree): Record<string, Set<string>> {
  const packages = { '@tuber/shell-contract/router': 'frontends/shell-contract/src/router.ts' };
  const provides: Record<string, Set<string>> = {};
  const split = tree.read('frontends/shell-contract/src/index.ts') !== undefined;
  if (split) {
    provides['@tuber/shell-contract'] = exportedNames(tree, 'frontends/shell-contract/src/index.ts', packages);
    provides['@tuber/shell-contract/router'] = exportedNames(tree, 'frontends/shell-contract/src/router.ts', packages);
    if (tree.read('frontends/shell/src/legacy/ui-0.1.ts') !== undefined) {
      provides['@tuber/ui'] = exportedNames(tree, 'frontends/shell/src/legacy/ui-0.1.ts', packages);
      provides['@tuber/ui/router'] = exportedNames(tree, 'frontends/shell/src/legacy/ui-router-0.1.ts', packages);
    }
  } else {
    // Before the split the shell shared @tuber/ui whole; remotes of today take it as their contract.
    const ui = exportedNames(tree, 'frontends/ui/src/index.ts', packages);
    const router = exportedNames(tree, 'frontends/ui/src/router.ts', packages);
    Object.assign(provides, { '@tuber/ui': ui, '@tuber/ui/router': router, '@tuber/shell-contract': ui, '@tuber/shell-contract/router': router });
  }
  return provides;
}

/** What the remotes of `tree` (and, once split, the library they bundle) import under each shared key. */
function remotesTake(tree: Tree): Map<string, Map<string, string[]>> {
  const split = tree.read('frontends/shell-contract/src/index.ts') !== undefined;
  const keys = split ? ['@tuber/shell-contract', '@tuber/shell-contract/router'] : ['@tuber/ui', '@tuber/ui/router'];
  const dirs = [...REMOTES.map((remote) => `frontends/${remote}/src`), ...(split ? ['frontends/ui/src'] : [])];
  const taken = new Map<string, Map<string, string[]>>(keys.map((key) => [key, new Map()]));
  for (const dir of dirs) {
    for (const file of sources(tree, dir)) {
      const text = tree.read(file) ?? '';
      for (const key of keys) {
        for (const name of importedNames(text, key)) {
          const users = taken.get(key)!;
          users.set(name, [...(users.get(name) ?? []), file]);
        }
      }
    }
  }
  return taken;
}

function missing(taken: Map<string, Map<string, string[]>>, provides: Record<string, Set<string>>): string[] {
  const gaps: string[] = [];
  for (const [key, names] of taken) {
    const offered = provides[key];
    for (const [name, files] of names) {
      if (!offered) gaps.push(`${key} is not shared at all (wanted "${name}" by ${files[0]})`);
      else if (!offered.has('*') && (name === '*' || !offered.has(name))) gaps.push(`${key} lacks "${name}" (used by ${files.join(', ')})`);
    }
  }
  return gaps;
}

describe('the shell contract between today and the last release (releases.json)', () => {
  const shellRelease = released(releases.units.shell!.commit);

  it("today's remotes take from the last released shell only what it provides", () => {
    const taken = remotesTake(today);
    expect([...taken.get('@tuber/shell-contract')!.keys()].length).toBeGreaterThan(10); // the check reads real imports
    expect(missing(taken, shellProvides(shellRelease))).toEqual([]);
  });

  for (const remote of REMOTES) {
    // A remote not released yet (no entry in releases.json) has no last release to check.
    it.skipIf(!releases.units[frontendUnit(remote)])(`the last released ${remote} takes from today's shell only what it provides`, () => {
      const release = released(releases.units[frontendUnit(remote)]!.commit);
      const onlyThisRemote: Tree = { ...release, list: (dir) => (dir.startsWith('frontends/') && !dir.startsWith(`frontends/${remote}/`) && REMOTES.some((r) => dir.startsWith(`frontends/${r}/`)) ? [] : release.list(dir)) };
      expect(missing(remotesTake(onlyThisRemote), shellProvides(today))).toEqual([]);
    });
  }

  it('finds a name that a side does not provide (the check can fail)', () => {
    const provides = shellProvides(today);
    provides['@tuber/shell-contract']!.delete('useShell');
    expect(missing(remotesTake(today), provides).join('\n')).toMatch(/@tuber\/shell-contract lacks "useShell"/);
  });
});
