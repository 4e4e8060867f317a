// The shared front-end packages' public API is a reviewed file (docs/adr/0054): API Extractor's report must
// match the sources, and a change against the last release (releases.json) must carry the version it needs:
// a removed or changed declaration a major version (for 0.x, the minor), an added one at least a minor.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_REPORTS, apiReports } from '../../frontends/ui/build/api-report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const releases = JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { commit: string }> };

/** The report's declarations by name, each as its normalised text (doc-status comments dropped). */
export function declarations(report: string): Map<string, string> {
  const body = report.split('```ts')[1]?.split('```')[0] ?? '';
  const found = new Map<string, string>();
  for (const block of body.split(/\n\s*\n/)) {
    const text = block
      .split('\n')
      .filter((line) => !/^\s*\/\/ /.test(line) && line.trim() !== '')
      .join('\n');
    const name = /^export (?:declare )?(?:abstract )?(?:function|const|let|class|interface|type|enum|namespace) ([\w$]+)/m.exec(text)?.[1];
    if (name) found.set(name, `${found.get(name) ?? ''}${text}\n`);
    else if (/^export \{/.test(text)) for (const n of text.replace(/^export \{|\} from .*$/gs, '').split(',')) if (n.trim()) found.set(n.trim(), text);
  }
  return found;
}

/** What the change from `before` to `after` needs of the version: 'major', 'minor' or 'none'. */
export function requiredBump(before: Map<string, string>, after: Map<string, string>): 'major' | 'minor' | 'none' {
  for (const [name, text] of before) if (after.get(name) !== text) return 'major';
  for (const name of after.keys()) if (!before.has(name)) return 'minor';
  return 'none';
}

/** Whether `version` is at least the bump `needed` above `released` (semver; in 0.x the minor is the breaking part). */
export function bumped(released: string, version: string, needed: 'major' | 'minor' | 'none'): boolean {
  const [a, b, c] = released.split('.').map(Number) as [number, number, number];
  const [x, y, z] = version.split('.').map(Number) as [number, number, number];
  const breaking = a === 0 ? x > 0 || y > b : x > a;
  const feature = breaking || (a === 0 ? y === b && z > c : x === a && y > b);
  if (needed === 'major') return breaking;
  if (needed === 'minor') return feature;
  return true;
}

function atRelease(commit: string, file: string): string | undefined {
  try {
    return execFileSync('git', ['-C', root, 'show', `${commit}:${file}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

describe('API reports of the shared front-end packages', () => {
  it('match the sources (npx tsx frontends/ui/build/api-report.ts --update writes them)', () => {
    const results = apiReports();
    expect(results.map((r) => r.report)).toEqual(API_REPORTS.map((r) => r.report));
    const stale = results.filter((r) => r.changed).map((r) => `${r.file} is out of date: the package's public API changed`);
    expect(stale, stale.join('\n')).toEqual([]);
  }, 120_000);

  it('carry the version their change since the last release needs', () => {
    const commit = releases.units.shell!.commit;
    const problems: string[] = [];
    for (const { pkg, report } of API_REPORTS) {
      const file = `frontends/${pkg}/api/${report}.api.md`;
      const before = atRelease(commit, file);
      if (before === undefined) continue; // the release had no report of it yet: this one is the first
      const releasedVersion = JSON.parse(atRelease(commit, `frontends/${pkg}/package.json`)!).version as string;
      const version = JSON.parse(fs.readFileSync(path.join(root, 'frontends', pkg, 'package.json'), 'utf8')).version as string;
      const needed = requiredBump(declarations(before), declarations(fs.readFileSync(path.join(root, file), 'utf8')));
      if (!bumped(releasedVersion, version, needed)) problems.push(`${file}: a ${needed} change since ${releasedVersion} (release ${commit.slice(0, 7)}), but the version is ${version}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('tell a removed or changed declaration (major) from an added one (minor)', () => {
    const report = (...decls: string[]) => `## API Report\n\n\`\`\`ts\n\n${decls.join('\n\n')}\n\n\`\`\`\n`;
    const base = declarations(report('// @public\nexport function useShell(): ShellContract;', '// @public\nexport type Locale = "en";'));
    expect(requiredBump(base, declarations(report('// @public\nexport type Locale = "en";')))).toBe('major');
    expect(requiredBump(base, declarations(report('// @public\nexport function useShell(x: number): ShellContract;', '// @public\nexport type Locale = "en";')))).toBe('major');
    expect(requiredBump(base, declarations(report('// @public\nexport function useShell(): ShellContract;', '// @public\nexport type Locale = "en";', 'export const LATER = 1;')))).toBe('minor');
    expect(bumped('1.0.0', '1.0.1', 'major')).toBe(false);
    expect(bumped('1.0.0', '2.0.0', 'major')).toBe(true);
    expect(bumped('0.1.0', '0.2.0', 'major')).toBe(true);
    expect(bumped('1.2.0', '1.2.5', 'minor')).toBe(false);
    expect(bumped('1.2.0', '1.3.0', 'minor')).toBe(true);
  });
});
