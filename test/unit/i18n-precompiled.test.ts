// Messages compiled at build time (docs/adr/0046-precompiled-messages.md): the catalogue loader turns ICU
// strings into the ASTs intl-messageformat would parse at run time, fails on a broken message with its file
// and id, and the facade formats ASTs, and strings too, also where the page has no ICU parser.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import messagesLoader, { CATALOGUE_FILE, catalogueLocale, compileCatalogue } from '../../frontends/ui/build/messages-loader.js';
import { messageArguments } from '../../frontends/ui/src/i18n/check.js';
import type { Locale } from '../../frontends/shell-contract/src/locales.js';
import type { Messages } from '../../frontends/ui/src/i18n/messages.js';
// The copies the facade uses (frontends/ui's own intl-messageformat 12, not the root's older one).
import { IntlMessageFormat } from '../../frontends/ui/node_modules/intl-messageformat/index.js';
import { parse as noParser } from '../../frontends/ui/node_modules/@formatjs/icu-messageformat-parser/no-parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LANGUAGES: Locale[] = ['en', 'pcm', 'yo', 'ha', 'ig'];

/** Formats a message (string or AST) as the facade does, minus its en-NG number formatters. */
function format(message: string | Messages[string], locale: Locale, values?: Record<string, unknown>): unknown {
  if (typeof message === 'string' && !/[{}'#]/.test(message)) return message;
  return new IntlMessageFormat(message, `${locale}-NG`, undefined, { ignoreTag: true }).format(values as never);
}

/** Values for every argument of a message, one set per plural case worth trying. */
function sampleValues(message: string): Record<string, unknown>[] {
  const args = messageArguments(message).map((arg) => arg.split(':') as [string, string]);
  return [0, 1, 2, 21, 1500].map((n) =>
    Object.fromEntries(
      args.map(([name, kind]) => [
        name,
        kind === 'plural' || kind === 'number' ? n : kind === 'date' || kind === 'time' ? new Date(0) : `«${name}»`,
      ]),
    ),
  );
}

describe('catalogue loader', () => {
  const catalogue = {
    'plain.text': 'Sell your yams <today>',
    'plain.empty': '',
    'quote.text': "Don't wait",
    'quote.brace': "Write '{name}' as is",
    'cart.items': '{count, plural, =0 {No items} one {# item} other {# items}} · {total}',
    'cart.total': 'Total: {price, number, ::currency/NGN}',
    'order.when': 'Placed {at, date, ::yyyyMMMd}',
    'order.kind': '{kind, select, pickup {Pick up} other {Delivery}}',
  };

  it('compiles each ICU message to its AST and keeps plain text a string', () => {
    const compiled = compileCatalogue(catalogue, 'en', 'src/i18n/en.json');
    expect(compiled['plain.text']).toBe('Sell your yams <today>');
    expect(compiled['plain.empty']).toBe('');
    for (const id of ['quote.text', 'quote.brace', 'cart.items', 'cart.total', 'order.when', 'order.kind']) {
      expect(Array.isArray(compiled[id]), id).toBe(true);
    }
    // Skeletons are parsed at build time (the browser has no skeleton parser), and no source locations ship.
    const json = JSON.stringify(compiled);
    expect(json).toContain('"parsedOptions":{"style":"currency","currency":"NGN"}');
    expect(json).not.toContain('location');
  });

  it('ASTs (through JSON, as the bundle carries them) format as the strings do', () => {
    for (const locale of ['en', 'yo'] as const) {
      const compiled = JSON.parse(JSON.stringify(compileCatalogue(catalogue, locale, `src/i18n/${locale}.json`))) as Messages;
      for (const [id, message] of Object.entries(catalogue)) {
        for (const values of [
          { count: 0, total: '₦0', price: 1500, at: new Date(Date.UTC(2026, 10, 25, 12)), kind: 'pickup' },
          { count: 1, total: '₦500', price: 1500.5, at: new Date(Date.UTC(2026, 0, 1, 12)), kind: 'delivery' },
          { count: 12000, total: '₦9', price: 2, at: new Date(Date.UTC(2026, 5, 30, 12)), kind: 'x' },
        ]) {
          expect(format(compiled[id]!, locale, values), `${locale} ${id}`).toEqual(format(message, locale, values));
        }
      }
    }
  });

  it('fails on a message that is not valid ICU, naming the file, the id and the parser error', () => {
    const broken = { ...catalogue, 'cart.broken': 'Hello {name', 'cart.plural': '{count, plural, one {# item}}' };
    let error: unknown;
    try {
      compileCatalogue(broken, 'en', 'frontends/buyer/src/i18n/en.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    const text = (error as Error).message;
    expect(text).toContain('frontends/buyer/src/i18n/en.json');
    expect(text).toMatch(/"cart\.broken" is not valid ICU: EXPECT_ARGUMENT_CLOSING_BRACE/);
    expect(text).toMatch(/"cart\.plural" is not valid ICU: MISSING_OTHER_CLAUSE/);
    expect(text).not.toContain('"cart.items"');
    expect(() => compileCatalogue({ 'a.b': 3 }, 'en', 'x/en.json')).toThrow(/"a\.b" is not a string/);
  });

  it('as a webpack loader: JSON in, JSON of compiled messages out; the language from the file name', () => {
    const context = { resourcePath: '/repo/frontends/farmer/src/i18n/ha.json', rootContext: '/repo/frontends/farmer' };
    const out = messagesLoader.call(
      context as never,
      JSON.stringify({ 'a.b': 'Sannu', 'a.c': '{n, plural, one {# doya} other {# doya}}' }),
    );
    const messages = JSON.parse(out) as Messages;
    expect(messages['a.b']).toBe('Sannu');
    expect(format(messages['a.c']!, 'ha', { n: 3 })).toBe('3 doya');
    expect(() => messagesLoader.call(context as never, '{"a.b": "{x"}')).toThrow(/src\/i18n\/ha\.json: .*"a\.b" is not valid ICU/s);
    expect(() => messagesLoader.call(context as never, '{oops')).toThrow(/ha\.json: not valid JSON/);
  });

  it('applies to the five languages of each front end, not to review.json', () => {
    for (const code of LANGUAGES) expect(CATALOGUE_FILE.test(`/r/frontends/shell/src/i18n/${code}.json`), code).toBe(true);
    expect(CATALOGUE_FILE.test('/r/frontends/shell/src/i18n/review.json')).toBe(false);
    expect(CATALOGUE_FILE.test('/r/frontends/shell/public/en.json')).toBe(false);
    expect(catalogueLocale('/r/src/i18n/pcm.json')).toBe('pcm');
    expect(() => catalogueLocale('/r/src/i18n/fr.json')).toThrow(/not a catalogue/);
  });

  // The real catalogues, compiled as the build compiles them, say what their strings say.
  const frontEnds = readdirSync(path.join(root, 'frontends'))
    .map((name) => ({ name, dir: path.join(root, 'frontends', name, 'src', 'i18n') }))
    .filter(({ dir }) => existsSync(path.join(dir, 'en.json')));
  it.each(frontEnds)('$name: every language compiles, each AST formats as its string', ({ dir }) => {
    for (const locale of LANGUAGES) {
      const file = path.join(dir, `${locale}.json`);
      const strings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = JSON.parse(JSON.stringify(compileCatalogue(strings, locale, file))) as Messages;
      expect(Object.keys(compiled)).toEqual(Object.keys(strings));
      for (const [id, message] of Object.entries(strings)) {
        for (const values of sampleValues(message)) {
          expect(format(compiled[id]!, locale, values), `${file} ${id}`).toEqual(format(message, locale, values));
        }
      }
    }
  });
});

describe('the facade with compiled messages', () => {
  type I18n = typeof import('../../frontends/ui/src/i18n/index.js');
  let warn: ReturnType<typeof vi.spyOn>;
  const parse = IntlMessageFormat.__parse;

  /** A fresh copy of the facade, as on a new page load. */
  async function fresh(): Promise<I18n> {
    vi.resetModules();
    return import('../../frontends/ui/src/i18n/index.js');
  }

  const strings = {
    'cart.title': 'Your cart',
    'cart.items': '{count, plural, one {# item} other {# items}}',
    'cart.total': 'Total: {price, number, ::currency/NGN}',
    'cart.note': "Don't forget",
  };
  const yoStrings = {
    'cart.title': 'Àpò rẹ',
    'cart.items': '{count, plural, other {ọjà #}}',
    'cart.total': 'Àpapọ̀: {price, number, ::currency/NGN}',
  };

  beforeEach(() => {
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal('document', { documentElement: { lang: 'en' } });
    vi.stubGlobal('navigator', { language: 'en-US', languages: ['en-US'] });
    globalThis.__tuberMissingKeys = undefined;
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    IntlMessageFormat.__parse = parse;
    vi.unstubAllGlobals();
    warn.mockRestore();
  });

  it('formats ASTs: plurals, naira in en-NG style, English fallback per key', async () => {
    const i18n = await fresh();
    const en = compileCatalogue(strings, 'en', 'en.json');
    const yo = compileCatalogue(yoStrings, 'yo', 'yo.json');
    const cat = i18n.defineCatalogue('test', en, async () => yo);
    expect(i18n.translate(cat, 'cart.title')).toBe('Your cart');
    expect(i18n.translate(cat, 'cart.items', { count: 1 })).toBe('1 item');
    expect(i18n.translate(cat, 'cart.items', { count: 12000 })).toBe('12,000 items');
    expect(i18n.translate(cat, 'cart.total', { price: 1500 })).toBe('Total: ₦1,500.00');
    expect(i18n.translate(cat, 'cart.note')).toBe("Don't forget");
    await i18n.loadCatalogue(cat, 'yo');
    expect(i18n.translateIn(cat, 'yo', 'cart.items', { count: 3 })).toBe('ọjà 3');
    expect(i18n.translateIn(cat, 'yo', 'cart.total', { price: 25000 })).toBe('Àpapọ̀: ₦25,000.00');
    expect(i18n.translateIn(cat, 'yo', 'cart.note')).toBe("Don't forget");
    expect(i18n.missingKeys()).toEqual(['test:yo:cart.note']);
  });

  it('an English AST that cannot be formatted (a value missing) reads as its text, not as an error', async () => {
    const i18n = await fresh();
    const cat = i18n.defineCatalogue('test', compileCatalogue(strings, 'en', 'en.json'), async () => ({}));
    expect(i18n.translate(cat, 'cart.items')).toBe('# items');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('without a parser (production), ASTs and plain strings still work; an ICU string falls back and warns once', async () => {
    const compiled = compileCatalogue(strings, 'en', 'en.json'); // at build time, where the parser is
    IntlMessageFormat.__parse = noParser as unknown as typeof parse;
    const i18n = await fresh();
    // A remote built before the loader: English as strings, mounted by a shell built without the parser.
    const old = i18n.defineCatalogue('old', strings, async () => yoStrings);
    expect(i18n.translate(old, 'cart.title')).toBe('Your cart');
    expect(i18n.translate(old, 'cart.items', { count: 2 })).toBe('{count, plural, one {# item} other {# items}}');
    expect(i18n.translate(old, 'cart.total', { price: 1 })).toBe('Total: {price, number, ::currency/NGN}');
    await i18n.loadCatalogue(old, 'yo');
    expect(i18n.translateIn(old, 'yo', 'cart.title')).toBe('Àpò rẹ');
    expect(i18n.translateIn(old, 'yo', 'cart.items', { count: 2 })).toBe('{count, plural, one {# item} other {# items}}');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/old: messages are ICU strings but this page has no ICU parser/);
    // A compiled catalogue on the same page is unaffected.
    const current = i18n.defineCatalogue('new', compiled, async () => ({}));
    expect(i18n.translate(current, 'cart.items', { count: 2 })).toBe('2 items');
    expect(i18n.translate(current, 'cart.total', { price: 1500 })).toBe('Total: ₦1,500.00');
  });
});
