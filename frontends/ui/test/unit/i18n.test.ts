// The i18n facade (issue 13): language store, catalogues with English fallback, missing-key record, Intl formats.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The library's i18n runtime together with the language store it reads, the shell contract's.
type I18n = typeof import('../../src/i18n/index.js') & typeof import('@tuber/shell-contract');

class MemoryStorage {
  readonly map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

let storage: MemoryStorage;
let html: { lang: string };
let warn: ReturnType<typeof vi.spyOn>;

/** A fresh copy of the facade, as on a new page load, with what was stored so far. */
async function fresh(stored?: string): Promise<I18n> {
  vi.resetModules();
  if (stored !== undefined) storage.setItem('tuber.locale', stored);
  return { ...(await import('@tuber/shell-contract')), ...(await import('../../src/i18n/index.js')) };
}

const en = {
  'cart.title': 'Your cart',
  'cart.items': '{count, plural, one {# item} other {# items}}',
  'cart.total': 'Total: {price, number, ::currency/NGN}',
  'cart.only.english': 'Checkout',
};
const yo = {
  'cart.title': 'Àpò rẹ',
  'cart.items': '{count, plural, one {ọjà #} other {ọjà #}}',
  'cart.total': 'Àpapọ̀: {price, number, ::currency/NGN}',
};

beforeEach(() => {
  storage = new MemoryStorage();
  html = { lang: 'en' };
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('document', { documentElement: html });
  vi.stubGlobal('navigator', { language: 'en-US', languages: ['en-US'] });
  globalThis.__tuberMissingKeys = undefined;
  globalThis.__tuberLoadedCatalogues = undefined;
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  warn.mockRestore();
});

describe('language store', () => {
  it('starts in English and lists the five languages by their own names', async () => {
    const i18n = await fresh();
    expect(i18n.getLocale()).toBe('en');
    expect(i18n.LOCALES.map((l) => `${l.code}=${l.label}`)).toEqual(['en=English', 'pcm=Pidgin', 'yo=Yorùbá', 'ha=Hausa', 'ig=Igbo']);
  });
  it('remembers the choice in localStorage tuber.locale, sets <html lang> and keeps it on the next load', async () => {
    const i18n = await fresh();
    i18n.setLocale('ha');
    expect(storage.getItem('tuber.locale')).toBe('ha');
    expect(html.lang).toBe('ha');
    html.lang = 'en';
    const again = await fresh();
    expect(again.getLocale()).toBe('ha');
    expect(html.lang).toBe('ha');
  });
  it('ignores a stored value that is not a language, and refuses to switch to one', async () => {
    const i18n = await fresh('fr');
    expect(i18n.getLocale()).toBe('en');
    expect(() => i18n.setLocale('fr' as never)).toThrow(/not a supported language/);
  });
  it('follows a phone set to Yoruba until a choice is made', async () => {
    vi.stubGlobal('navigator', { language: 'yo-NG', languages: ['yo-NG', 'en'] });
    expect((await fresh()).getLocale()).toBe('yo');
    expect((await fresh('en')).getLocale()).toBe('en');
  });
  it('tells subscribers and locale listeners about a switch, once', async () => {
    const i18n = await fresh();
    const seen: string[] = [];
    i18n.onLocaleChange((l) => seen.push(l));
    let notified = 0;
    i18n.subscribeI18n(() => notified++);
    i18n.setLocale('ig');
    i18n.setLocale('ig');
    expect(seen).toEqual(['ig']);
    expect(notified).toBe(1);
  });
});

describe('catalogues', () => {
  it('formats English ICU messages (plurals, naira in en-NG style)', async () => {
    const i18n = await fresh();
    const cat = i18n.defineCatalogue('test', en, async () => yo);
    expect(i18n.translate(cat, 'cart.items', { count: 1 })).toBe('1 item');
    expect(i18n.translate(cat, 'cart.items', { count: 12000 })).toBe('12,000 items');
    expect(i18n.translate(cat, 'cart.total', { price: 1500 })).toBe('Total: ₦1,500.00');
  });
  it('formats compiled messages (as production ships them) with no locale negotiation', async () => {
    // A page's first supportedLocalesOf makes the engine load its list of locales (25–30 ms on a fast machine):
    // English messages, compiled at build time, must format without asking it.
    const { IntlMessageFormat } = await import('intl-messageformat');
    const compiled = Object.fromEntries(
      Object.entries(en).map(([id, text]) => [id, new IntlMessageFormat(text, 'en-NG', undefined, { ignoreTag: true }).getAst()]),
    );
    const i18n = await fresh();
    const asked = [
      vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf'),
      vi.spyOn(Intl.PluralRules, 'supportedLocalesOf'),
      vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf'),
    ];
    try {
      const cat = i18n.defineCatalogue('test', compiled, async () => yo);
      expect(i18n.translate(cat, 'cart.items', { count: 1 })).toBe('1 item');
      expect(i18n.translate(cat, 'cart.items', { count: 12000 })).toBe('12,000 items');
      expect(i18n.translate(cat, 'cart.total', { price: 1500 })).toBe('Total: ₦1,500.00');
      for (const spy of asked) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of asked) spy.mockRestore();
    }
  });
  it('loads a language on demand, then translates; numbers stay en-NG', async () => {
    const i18n = await fresh();
    const load = vi.fn(async () => yo);
    const cat = i18n.defineCatalogue('test', en, load);
    expect(load).not.toHaveBeenCalled(); // English is bundled: nothing else is fetched
    i18n.setLocale('yo');
    expect(load).toHaveBeenCalledWith('yo');
    expect(i18n.translate(cat, 'cart.title')).toBe('Your cart'); // English until the messages arrive
    await i18n.loadCatalogue(cat, 'yo');
    expect(i18n.translate(cat, 'cart.title')).toBe('Àpò rẹ');
    expect(i18n.translate(cat, 'cart.total', { price: 25000 })).toBe('Àpapọ̀: ₦25,000.00');
    expect([...globalThis.__tuberLoadedCatalogues!]).toContain('test:yo');
    expect(i18n.missingKeys()).toEqual([]);
  });
  it('starts loading the stored language as soon as a catalogue is defined', async () => {
    const i18n = await fresh('yo');
    const cat = i18n.defineCatalogue('test', en, async () => yo);
    await i18n.loadCatalogue(cat, 'yo');
    expect(i18n.translate(cat, 'cart.title')).toBe('Àpò rẹ');
  });
  it('falls back to English for a key missing in the language, records it and warns once', async () => {
    const i18n = await fresh('yo');
    const cat = i18n.defineCatalogue('test', en, async () => yo);
    await i18n.loadCatalogue(cat, 'yo');
    expect(i18n.translate(cat, 'cart.only.english')).toBe('Checkout');
    expect(i18n.translate(cat, 'cart.only.english')).toBe('Checkout');
    expect(i18n.missingKeys()).toEqual(['test:yo:cart.only.english']);
    expect([...globalThis.__tuberMissingKeys!]).toEqual(['test:yo:cart.only.english']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('cart.only.english');
  });
  it('shows the id of a key missing in English, and records it', async () => {
    const i18n = await fresh();
    const cat = i18n.defineCatalogue('test', en, async () => yo);
    expect(i18n.translate(cat, 'cart.nothing')).toBe('cart.nothing');
    expect(i18n.missingKeys()).toEqual(['test:en:cart.nothing']);
  });
  it('shows English when a translation is not valid ICU', async () => {
    const i18n = await fresh('yo');
    const cat = i18n.defineCatalogue('test', en, async () => ({ ...yo, 'cart.items': '{count, plural, one {# ọjà}' }));
    await i18n.loadCatalogue(cat, 'yo');
    expect(i18n.translate(cat, 'cart.items', { count: 2 })).toBe('2 items');
  });
  it('shows English when a language cannot be loaded (offline), and tries again later', async () => {
    const i18n = await fresh('ig');
    let online = false;
    const cat = i18n.defineCatalogue('test', en, async () => {
      if (!online) throw new Error('network down');
      return { ...en, 'cart.title': 'Ụgbọ gị' };
    });
    await i18n.loadCatalogue(cat, 'ig');
    expect(i18n.translate(cat, 'cart.title')).toBe('Your cart');
    expect(i18n.missingKeys()).toEqual([]);
    online = true;
    await i18n.loadCatalogue(cat, 'ig');
    expect(i18n.translate(cat, 'cart.title')).toBe('Ụgbọ gị');
  });
  it('useT renders the current language and useLocale reports it', async () => {
    const i18n = await fresh();
    const cat = i18n.defineCatalogue('test', en, async () => yo);
    function Title() {
      const t = i18n.useT(cat);
      const { locale } = i18n.useLocale();
      return createElement('h1', { lang: locale }, t('cart.title'), ' ', t('cart.items', { count: 3 }));
    }
    expect(renderToStaticMarkup(createElement(Title))).toBe('<h1 lang="en">Your cart 3 items</h1>');
    i18n.setLocale('yo');
    await i18n.loadCatalogue(cat, 'yo');
    expect(renderToStaticMarkup(createElement(Title))).toBe('<h1 lang="yo">Àpò rẹ ọjà 3</h1>');
  });
});

describe('formats (Intl, numbers in en-NG style)', () => {
  it('money in naira: whole amounts without kobo, others with two decimals', async () => {
    const { formatFor } = await fresh();
    const f = formatFor('yo');
    expect(f.money(1500)).toBe('₦1,500');
    expect(f.money(1500.5)).toBe('₦1,500.50');
    expect(f.money(1_250_000)).toBe('₦1,250,000');
    expect(f.number(12000)).toBe('12,000');
  });
  it('dates in the language, a calendar day the same day everywhere', async () => {
    const { formatFor } = await fresh();
    expect(formatFor('en').date('2026-11-25')).toBe('25 Nov 2026');
    expect(formatFor('en').date('2026-11-25', 'long')).toBe('25 November 2026');
    expect(formatFor('yo').date('2026-11-25', 'long')).toMatch(/^25 .+ 2026$/);
    expect(formatFor('yo').date('2026-11-25', 'long')).not.toContain('November');
    expect(formatFor('en').date('not a date')).toBe('not a date');
  });
});
