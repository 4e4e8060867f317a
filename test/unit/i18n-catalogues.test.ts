// Every front end's catalogue (issue 13, docs/adr/0041-i18n.md): each language has exactly the English keys,
// every message is valid ICU with the same arguments as the English one, and review.json says which
// translations a native speaker should still review.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { messageArguments } from '../../frontends/ui/src/i18n/check.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LANGUAGES = ['pcm', 'yo', 'ha', 'ig'] as const;

const catalogues = readdirSync(path.join(root, 'frontends'))
  .map((name) => ({ name, dir: path.join(root, 'frontends', name, 'src', 'i18n') }))
  .filter(({ dir }) => existsSync(path.join(dir, 'en.json')));

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function messagesIn(file: string): Record<string, string> {
  const json = readJson(file);
  expect(json, `${file} is a flat object of messages`).toBeTypeOf('object');
  for (const [id, message] of Object.entries(json as object)) {
    expect(typeof message, `${file}: "${id}" is a string`).toBe('string');
  }
  return json as Record<string, string>;
}

function argsOf(file: string, id: string, message: string, locale: string): string[] {
  try {
    return messageArguments(message, locale);
  } catch (error) {
    throw new Error(`${file}: "${id}" is not valid ICU: ${String(error)}\n  ${message}`);
  }
}

describe('i18n catalogues', () => {
  it('finds the catalogues (shell and landing at least)', () => {
    expect(catalogues.map((c) => c.name)).toEqual(expect.arrayContaining(['shell', 'landing']));
  });

  describe.each(catalogues)('$name', ({ dir }) => {
    const enFile = path.join(dir, 'en.json');
    const en = readJson(enFile) as Record<string, string>;

    it('English messages are strings of valid ICU, ids <area>.<thing> in lowercase', () => {
      messagesIn(enFile);
      for (const [id, message] of Object.entries(en)) {
        expect(id, `${enFile}: ids are <area>.<thing> in lowercase`).toMatch(/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/);
        argsOf(enFile, id, message, 'en-NG');
      }
    });

    it.each(LANGUAGES)('%s has every English key, no other key, valid ICU with the same arguments', (language) => {
      const file = path.join(dir, `${language}.json`);
      expect(existsSync(file), `${file} exists`).toBe(true);
      const messages = messagesIn(file);
      const missing = Object.keys(en).filter((id) => !(id in messages));
      const extra = Object.keys(messages).filter((id) => !(id in en));
      expect(missing, `keys missing in ${path.relative(root, file)}`).toEqual([]);
      expect(extra, `keys in ${path.relative(root, file)} that English does not have`).toEqual([]);
      for (const [id, message] of Object.entries(messages)) {
        expect(message.trim(), `${file}: "${id}" is empty`).not.toBe('');
        expect(argsOf(file, id, message, `${language}-NG`), `${path.relative(root, file)}: "${id}" has the English arguments`).toEqual(
          argsOf(enFile, id, en[id]!, 'en-NG'),
        );
      }
    });

    it('review.json names each language and what a native speaker should review', () => {
      const file = path.join(dir, 'review.json');
      expect(existsSync(file), `${file} exists`).toBe(true);
      const review = readJson(file) as Record<string, { reviewed?: unknown; keys?: unknown }>;
      expect(Object.keys(review).sort()).toEqual([...LANGUAGES].sort());
      for (const language of LANGUAGES) {
        const entry = review[language]!;
        expect(typeof entry.reviewed, `${language}.reviewed is true or false`).toBe('boolean');
        if (entry.keys !== 'all') {
          expect(Array.isArray(entry.keys), `${language}.keys is "all" or a list of keys`).toBe(true);
          const unknown = (entry.keys as string[]).filter((id) => !(id in en));
          expect(unknown, `review.json ${language} lists keys English does not have`).toEqual([]);
        }
      }
    });
  });
});
