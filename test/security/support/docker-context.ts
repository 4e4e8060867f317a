// What a Dockerfile copies from its build context: COPY/ADD sources (not --from a stage), with
// ARG defaults filled in, matched against the context's files less what .dockerignore excludes
// (Docker's rules: patterns are relative to the context root, `**` spans directories, a pattern
// that matches a directory excludes everything under it, `!` re-includes, the last match wins).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface Rule {
  negate: boolean;
  regex: RegExp;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // "**/" matches zero or more directories; a trailing "**" matches anything.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob.slice(i + 1, end).replace(/^!/, '^')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += `\\${glob[i + 1]}`;
      i += 1;
    } else out += c.replace(/[.+^${}()|\]\\/]/g, '\\$&');
  }
  return out;
}

export function dockerignore(contextDir: string): { ignored: (path: string) => boolean; hasExceptions: boolean } {
  const file = join(contextDir, '.dockerignore');
  const rules: Rule[] = [];
  if (existsSync(file)) {
    for (const raw of readFileSync(file, 'utf8').split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const negate = line.startsWith('!');
      const pattern = (negate ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      rules.push({ negate, regex: new RegExp(`^${globToRegex(pattern)}(?:/.*)?$`) });
    }
  }
  return {
    hasExceptions: rules.some((r) => r.negate),
    ignored(path: string) {
      let result = false;
      for (const rule of rules) if (rule.regex.test(path)) result = !rule.negate;
      return result;
    },
  };
}

/** Every file of the context that .dockerignore lets into the build (paths relative to the context). */
export function contextFiles(contextDir: string): string[] {
  const { ignored, hasExceptions } = dockerignore(contextDir);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = relative(contextDir, join(dir, entry.name));
      if (entry.isDirectory()) {
        // Without exceptions an ignored directory cannot contribute anything: skip walking it.
        if (path === '.git' || (!hasExceptions && ignored(path))) continue;
        walk(join(dir, entry.name));
      } else if (!ignored(path)) files.push(path);
    }
  };
  walk(contextDir);
  return files;
}

export interface CopySource {
  instruction: string;
  source: string;
}

/** The sources of the Dockerfile's COPY/ADD instructions that read the build context. */
export function copySources(dockerfile: string): CopySource[] {
  const text = readFileSync(dockerfile, 'utf8').replace(/\\\r?\n/g, ' ');
  const args = new Map<string, string>();
  const sources: CopySource[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [keyword, ...rest] = line.split(/\s+/);
    const word = keyword!.toUpperCase();
    if (word === 'ARG') {
      const [name, value] = rest.join(' ').split('=');
      if (name && value !== undefined && !args.has(name)) args.set(name, value);
      continue;
    }
    if (word !== 'COPY' && word !== 'ADD') continue;
    const expanded = rest
      .join(' ')
      .replace(/\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g, (_m, a: string, d: string, b: string) => args.get(a ?? b) ?? d ?? '');
    let parts: string[];
    if (expanded.trim().startsWith('[')) parts = JSON.parse(expanded.trim()) as string[];
    else parts = expanded.split(/\s+/).filter(Boolean);
    const flags = parts.filter((p) => p.startsWith('--'));
    if (flags.some((f) => f.startsWith('--from'))) continue;
    const paths = parts.filter((p) => !p.startsWith('--'));
    for (const source of paths.slice(0, -1)) sources.push({ instruction: line, source: source.replace(/^\.\//, '').replace(/\/$/, '') });
  }
  return sources;
}

/** The context files one COPY source brings into the image. */
export function filesOf(source: string, files: string[]): string[] {
  if (source === '.' || source === '') return files;
  if (/[*?[]/.test(source)) {
    const regex = new RegExp(`^${globToRegex(source)}(?:/.*)?$`);
    return files.filter((f) => regex.test(f));
  }
  return files.filter((f) => f === source || f.startsWith(`${source}/`));
}
