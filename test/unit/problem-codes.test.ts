// Errors by code (issue 25, docs/adr/0064-problem-codes.md): every code the services and the gateway can
// answer is declared in contracts, and every declared code has words in the front ends' problem catalogue,
// using only the values the code declares. (That every language has every key with the same arguments is
// test/unit/i18n-catalogues.test.ts's, which reads frontends/ui/src/i18n too.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBLEMS, PROBLEM_CODES } from '../../contracts/src/problems.js';
import { messageArguments } from '../../frontends/ui/src/i18n/check.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LANGUAGES = ['en', 'pcm', 'yo', 'ha', 'ig'] as const;
const catalogue = (language: string) =>
  JSON.parse(readFileSync(path.join(root, 'frontends/ui/src/i18n', `${language}.json`), 'utf8')) as Record<string, string>;
const idOf = (code: string) => `problem.${code.toLowerCase()}`;
/** Codes only the front ends make (no answer reached them). */
const CLIENT_CODES = ['OFFLINE', 'OFFLINE_READ', 'NETWORK_FAILED'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'test') return [];
    return statSync(file).isDirectory() ? sourceFiles(file) : /\.ts$/.test(name) ? [file] : [];
  });
}

/** The codes a source names where it answers: problem('X', …), badRequest('X', …), code: 'X', RejectedImage('X', …). */
function codesNamedIn(text: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\b(?:problem|badRequest|forbidden|notFound|conflict|unavailable|refused|lineProblem\(line,)\s*\(?\s*'([A-Z][A-Z0-9_]+)'/g,
    /\bcode:\s*'([A-Z][A-Z0-9_]+)'/g,
    /\bRejectedImage\(\s*'([A-Z][A-Z0-9_]+)'/g,
    /"code":"([A-Z][A-Z0-9_]+)"/g,
    /\bunauthorized\([^;]*?,\s*'([A-Z][A-Z0-9_]+)'\)/g,
    /\bcode: ProblemCode = '([A-Z][A-Z0-9_]+)'/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

describe('problem codes', () => {
  const en = catalogue('en');

  it('every declared code, and each code only the front ends make, has words in every language', () => {
    for (const language of LANGUAGES) {
      const messages = catalogue(language);
      const missing = [...PROBLEM_CODES, ...CLIENT_CODES].filter((code) => !(idOf(code) in messages));
      expect(missing, `codes without words in frontends/ui/src/i18n/${language}.json`).toEqual([]);
    }
  });

  it("a code's words use only the values the code declares", () => {
    for (const code of PROBLEM_CODES) {
      const used = messageArguments(en[idOf(code)]!).map((argument) => argument.split(':')[0]);
      const declared: readonly string[] = PROBLEMS[code];
      expect(
        used.filter((name) => !declared.includes(name)),
        `${idOf(code)} uses values ${code} does not declare`,
      ).toEqual([]);
    }
  });

  it('the words for a status exist for every status the services answer, as the fallback for a code not known yet', () => {
    for (const id of ['problem.status_4xx', 'problem.status_5xx', 'problem.status_400', 'problem.status_404', 'problem.status_409', 'problem.status_503']) {
      expect(en[id], id).toBeTruthy();
    }
  });

  it('every code the services and the gateway answer is declared, and every declared code is answered somewhere', () => {
    const files = [
      ...readdirSync(path.join(root, 'services')).flatMap((service) => sourceFiles(path.join(root, 'services', service, 'src'))),
      path.join(root, 'infra/gateway/default.conf.template'),
      path.join(root, 'frontends/shell/src/sw/sw.ts'),
    ];
    const named = new Set(files.flatMap((file) => codesNamedIn(readFileSync(file, 'utf8'))));
    // Named by constant, not literal: IDEMPOTENCY_KEY_REUSED and BUYER_BLOCKED (contracts), the kit's schema map.
    const byConstant = ['IDEMPOTENCY_KEY_REUSED', 'BUYER_BLOCKED'];
    const kit = readFileSync(path.join(root, 'services/kit/src/errors.ts'), 'utf8');
    for (const match of kit.matchAll(/'(FIELD_[A-Z_]+|BODY_[A-Z_]+|UNSUPPORTED_MEDIA_TYPE|REQUEST_INVALID|RATE_LIMITED)'/g)) named.add(match[1]!);
    const undeclared = [...named].filter((code) => !(code in PROBLEMS) && !CLIENT_CODES.includes(code));
    expect(undeclared, 'codes answered but not declared in contracts/src/problems.ts').toEqual([]);
    const unanswered = PROBLEM_CODES.filter((code) => !named.has(code) && !byConstant.includes(code));
    expect(unanswered, 'codes declared but answered nowhere (remove them, or answer them)').toEqual([]);
  });
});
