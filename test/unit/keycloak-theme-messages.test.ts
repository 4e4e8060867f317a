// The Keycloak theme in five languages (issue 13, docs/adr/0044-server-languages.md): every key of the
// English login and e-mail messages is in the Pidgin, Yoruba, Hausa and Igbo files with the same {n}
// arguments; each file is written as Keycloak reads it (UTF-8, MessageFormat apostrophes doubled); the
// themes and the realm name the same five languages; REVIEW.md lists every file still waiting for a
// native speaker.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const theme = path.join(root, 'infra/keycloak/themes/tuber');
const LANGUAGES = ['pcm', 'yo', 'ha', 'ig'] as const;
const ALL = ['en', ...LANGUAGES];

/** A .properties file as Keycloak reads ours: one key=value per line, # comments (no continuation lines). */
function properties(file: string): Map<string, string> {
  const text = readFileSync(file, 'utf8');
  const entries = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim() || line.startsWith('#')) continue;
    expect(line.endsWith('\\'), `${file}:${index + 1} continues on the next line (not supported here)`).toBe(false);
    const at = line.indexOf('=');
    expect(at, `${file}:${index + 1} is key=value`).toBeGreaterThan(0);
    const key = line.slice(0, at);
    expect(entries.has(key), `${file}: ${key} is there twice`).toBe(false);
    entries.set(key, line.slice(at + 1));
  }
  return entries;
}

/** The MessageFormat arguments a message uses ({0}, {1,choice,…} → "0", "1"). */
const argumentsOf = (message: string) => [...new Set([...message.matchAll(/\{(\d+)[,}]/g)].map((m) => m[1]))].sort();

for (const kind of ['login', 'email'] as const) {
  describe(`Keycloak ${kind} theme messages`, () => {
    const file = (locale: string) => path.join(theme, kind, 'messages', `messages_${locale}.properties`);
    const english = properties(file('en'));

    it('has English messages to translate', () => {
      expect(english.size).toBeGreaterThan(kind === 'login' ? 50 : 10);
    });

    for (const locale of LANGUAGES) {
      it(`${locale}: every English key, no other key, the same arguments, written as Keycloak reads it`, () => {
        const translated = properties(file(locale));
        const missing = [...english.keys()].filter((key) => !translated.has(key));
        const extra = [...translated.keys()].filter((key) => !english.has(key));
        expect(missing, `keys of messages_en missing in messages_${locale}`).toEqual([]);
        expect(extra, `keys in messages_${locale} that English does not have`).toEqual([]);
        for (const [key, message] of translated) {
          expect(message.trim(), `${locale}: ${key} is empty`).not.toBe('');
          // A unit of the link's lifetime is only chosen by its number in English; one form serves all counts elsewhere.
          if (!key.startsWith('linkExpirationFormatter.'))
            expect(argumentsOf(message), `${locale}: ${key} uses the arguments of the English message`).toEqual(
              argumentsOf(english.get(key)!),
            );
          // Java's MessageFormat drops a lone apostrophe (and quotes what follows): write it twice.
          expect(message.replaceAll("''", ''), `${locale}: ${key} has a lone apostrophe`).not.toContain("'");
          expect(message, `${locale}: ${key} is not valid UTF-8`).not.toContain('\uFFFD');
        }
      });
    }

    it('the theme offers the five languages', () => {
      const locales = properties(path.join(theme, kind, 'theme.properties')).get('locales');
      expect(locales?.split(',').map((l) => l.trim())).toEqual(ALL);
    });
  });
}

describe('realm tuber and the review list', () => {
  it('has internationalization on with the five languages and English as the default', () => {
    const realm = JSON.parse(readFileSync(path.join(root, 'infra/keycloak/tuber-realm.json'), 'utf8'));
    expect(realm).toMatchObject({ internationalizationEnabled: true, defaultLocale: 'en' });
    expect(realm.supportedLocales).toEqual(ALL);
  });

  it('Yoruba is written with its tone marks', () => {
    const yo = properties(path.join(theme, 'login/messages/messages_yo.properties'));
    expect(yo.get('doLogIn')).toBe('Wọlé');
    expect(yo.get('password')).toBe('Ọ̀rọ̀ aṣínà');
  });

  it('REVIEW.md names every translated file', () => {
    const review = readFileSync(path.join(theme, 'REVIEW.md'), 'utf8');
    for (const kind of ['login', 'email'])
      for (const locale of LANGUAGES) expect(review).toContain(`${kind}/messages/messages_${locale}.properties`);
  });
});
