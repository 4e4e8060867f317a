// A secret scan of what leaves this machine: the front-end bundles the gateway serves, and every
// file the Dockerfiles copy into an image. No private keys, none of the generated secrets, no .env,
// no client secrets, no source maps.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { contextFiles, copySources, filesOf } from './support/docker-context.js';
import { allSecrets, ROOT } from './support/stack.js';
import { counts } from './support/tally.js';

const secrets = allSecrets();

/** Problems with one file, by its path and its content. */
function problemsOf(path: string, content: Buffer | undefined): string[] {
  const name = basename(path);
  const found: string[] = [];
  if (name === '.env' || (name.startsWith('.env.') && name !== '.env.example')) found.push('an .env file');
  if (/\.(pem|key|p12|pfx|jks|keystore)$/i.test(name) || /^id_(rsa|ed25519|ecdsa)/.test(name)) found.push('a key file');
  if (name.endsWith('.map')) found.push('a source map');
  if (/(^|\/)\.run\//.test(path) || /(^|\/)secrets\//.test(path)) found.push('a file from a secrets/state directory');
  if (!content) return found;
  const text = content.toString('latin1');
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) found.push('a private key');
  if (/[#@] sourceMappingURL=(?!data:)[^\s'"*]+/.test(text)) found.push('a sourceMappingURL comment naming a map file');
  if (/_authToken\s*=/.test(text)) found.push('an npm auth token');
  if (/AKIA[0-9A-Z]{16}/.test(text)) found.push('an AWS access key id');
  // A client secret written as a literal (placeholders like ${...} and empty values are fine).
  if (/client[_-]?secret["']?\s*[:=]\s*["'](?!\$\{)[A-Za-z0-9_-]{12,}["']/i.test(text)) found.push('a client secret literal');
  for (const [secretName, value] of secrets) if (text.includes(value)) found.push(`the generated secret ${secretName}`);
  return found;
}

function read(path: string): Buffer | undefined {
  const size = statSync(path).size;
  return size <= 20 * 1024 * 1024 ? readFileSync(path) : undefined;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

function findDockerfiles(dir: string): string[] {
  const skip = new Set(['node_modules', '.git', '.run', 'dist', 'test-artifacts']);
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return skip.has(e.name) ? [] : findDockerfiles(join(dir, e.name));
    return /^Dockerfile(\.[\w-]+)?$/.test(e.name) ? [join(dir, e.name)] : [];
  });
}

describe('secret scan', () => {
  it('this machine has generated secrets to look for (the scan is not empty)', () => {
    expect(secrets.size, '.run/secrets holds the generated secrets').toBeGreaterThan(3);
  });

  it('the scanner flags what it looks for (planted examples)', () => {
    const [name, value] = [...secrets][0]!;
    expect(problemsOf('app/.env', Buffer.from('A=1'))).toContain('an .env file');
    expect(problemsOf('main.js.map', Buffer.from('{}'))).toContain('a source map');
    expect(problemsOf('main.js', Buffer.from('x();\n//# sourceMappingURL=main.js.map'))).toContain(
      'a sourceMappingURL comment naming a map file',
    );
    expect(problemsOf('a.txt', Buffer.from(`-----BEGIN ${'RSA'} PRIVATE KEY-----\nabc`))).toContain('a private key');
    expect(problemsOf('a.js', Buffer.from(`const s = "${value}";`))).toContain(`the generated secret ${name}`);
    expect(problemsOf('a.json', Buffer.from('{"clientSecret": "abcdefghijklmnop"}'))).toContain('a client secret literal');
    expect(problemsOf('a.json', Buffer.from('{"secret": "${TUBER_AUTH_CLIENT_SECRET}"}'))).toEqual([]);
  });

  const frontends = readdirSync(join(ROOT, 'frontends')).filter((name) => existsSync(join(ROOT, 'frontends', name, 'webpack.config.ts')));

  it.each(frontends)('the built bundle of frontends/%s holds no secret and no source map', (name) => {
    const dist = join(ROOT, 'frontends', name, 'dist');
    expect(existsSync(dist), `${dist} is built (make build)`).toBe(true);
    const problems: string[] = [];
    const files = walk(dist);
    for (const file of files)
      for (const problem of problemsOf(relative(ROOT, file), read(file))) problems.push(`${relative(ROOT, file)}: ${problem}`);
    counts.notes.push(`secret scan: frontends/${name}/dist, ${files.length} files`);
    expect(problems).toEqual([]);
  });

  const dockerfiles = findDockerfiles(ROOT)
    .map((f) => relative(ROOT, f))
    .sort();
  const context = contextFiles(ROOT);

  it('there are Dockerfiles to check, and the build context leaves out state, secrets and .env', () => {
    expect(dockerfiles.length).toBeGreaterThan(0);
    for (const path of context) {
      expect(path, 'build context').not.toMatch(/^\.run\/|^\.env$|(^|\/)node_modules\//);
    }
  });

  it.each(dockerfiles)('%s copies no secret, no key, no .env, no source map into its image', (dockerfile) => {
    const sources = copySources(join(ROOT, dockerfile));
    expect(sources.length, `${dockerfile} copies something`).toBeGreaterThan(0);
    const problems: string[] = [];
    const copied = new Set<string>();
    for (const { source, instruction } of sources) {
      const files = filesOf(source, context);
      expect(files.length, `${dockerfile}: "${instruction}" copies files that exist`).toBeGreaterThan(0);
      for (const file of files) copied.add(file);
    }
    for (const file of copied) for (const problem of problemsOf(file, read(join(ROOT, file)))) problems.push(`${file}: ${problem}`);
    counts.notes.push(`secret scan: ${dockerfile}, ${copied.size} files copied from the context`);
    expect(problems).toEqual([]);
  });
});
