// keycloak-js's silent check-sso page carries its one script inline, and the gateway's CSP allows exactly that
// script by its sha256 (ADR 0019 addendum). The browser hashes the bytes it receives between <script> and
// </script>; a one-byte edit of the page without a new hash in the gateway would make every signed-in page
// load wait keycloak-js's 8 s timeout and then carry on as a guest. So: the hash in the template must be the
// hash of the page's script, and the production build, which minifies HTML and its inline scripts with
// webpack's own minifier, must serve those same bytes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(join(repo, 'frontends/shell/public/silent-check-sso.html'), 'utf8');
const template = readFileSync(join(repo, 'infra/gateway/default.conf.template'), 'utf8');

/** Every <script> of a page: its attributes and the exact text between the tags. */
function scripts(html: string): { attributes: string; content: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({ attributes: m[1]!, content: m[2]! }));
}

/** A CSP hash source as the browser computes it: sha256 over the UTF-8 bytes, base64. */
const cspHash = (content: string) => `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;

/** The policy the template's `map $uri $tuber_csp` gives /silent-check-sso.html, as directive -> sources. */
function silentCheckPolicy(): Map<string, string[]> {
  const found = /^\s*\/silent-check-sso\.html\s+"([^"]*)";/m.exec(template.slice(template.indexOf('map $uri $tuber_csp')));
  expect(found, 'the /silent-check-sso.html entry of map $uri $tuber_csp').not.toBeNull();
  return new Map(
    found![1]!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('the silent check-sso page and its CSP hash', () => {
  it('has exactly one script, inline, and no script file', () => {
    const found = scripts(page);
    expect(found).toHaveLength(1);
    expect(found[0]!.attributes.trim()).toBe('');
    expect(found[0]!.content.trim()).not.toBe('');
  });

  it("the gateway allows exactly that script's hash, and nothing else runs there", () => {
    const policy = silentCheckPolicy();
    expect(policy.get('script-src')).toEqual([cspHash(scripts(page)[0]!.content)]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
  });

  it("the production build's minifier leaves the script's bytes as they are (else the served hash differs)", async () => {
    // What webpack's default minimizer does to the shell's public/ .html files in production: its own HTML
    // minifier, which hands each inline script to terser with webpack's default options (compress, 2 passes).
    const require = createRequire(import.meta.url);
    const htmlMinify = require('webpack/lib/html/htmlMinify.js') as (
      input: Record<string, string>,
      sourceMap: undefined,
      options: { renderEmbeddedSource: (source: string, info: { type: string }) => Promise<string | undefined> },
    ) => Promise<{ code: string }>;
    const built = await htmlMinify({ 'silent-check-sso.html': page }, undefined, {
      renderEmbeddedSource: async (source, { type }) =>
        type === 'javascript' ? (await minify(source, { compress: { passes: 2 } })).code : undefined,
    });
    expect(scripts(built.code).map((script) => script.content)).toEqual(scripts(page).map((script) => script.content));
  });
});
