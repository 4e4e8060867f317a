// Catalogues of ICU messages (one per front end) and the translator over them.
// English ships in the bundle; other languages load on demand. A key missing in the chosen language
// falls back to English and is recorded (globalThis.__tuberMissingKeys, a console warning once per key)
// so browser tests can fail on it; a key missing in English shows its id.
// Messages arrive as ASTs compiled at build time (build/messages-loader.ts, docs/adr/0046): production
// bundles carry no ICU parser. Strings still work where there is one (development, Node tests).
import { formatToParts, IntlMessageFormat, type Formatters } from 'intl-messageformat';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { messageFormatters } from './format.js';
import type { Locale } from '@tuber/shell-contract';
import { regionalTag } from './locales.js';
import { ensureDateLocale } from './dates.js';
import { type CompiledMessage, type Messages, isMessage, isPlainText } from './messages.js';
import { getLocale, onLocaleChange, subscribeI18n } from '@tuber/shell-contract';

export type { CompiledMessage, Messages };
export type OtherLocale = Exclude<Locale, 'en'>;
export type MessageValues = Record<string, string | number | Date>;

export interface Catalogue {
  remote: string;
  en: Messages;
  load(locale: OtherLocale): Promise<Messages>;
}

declare global {
  // Keys a page asked for that its language lacks: "<remote>:<locale>:<id>". Read by browser tests.
  var __tuberMissingKeys: Set<string> | undefined;
  // Catalogues whose messages for a language have arrived: "<remote>:<locale>". Read by browser tests.
  var __tuberLoadedCatalogues: Set<string> | undefined;
}

interface State {
  loaded: Map<OtherLocale, Messages>;
  pending: Map<OtherLocale, Promise<void>>;
  compiled: Map<string, CompiledMessage | null>;
}

const states = new WeakMap<Catalogue, State>();

// A catalogue's messages arriving changes text as a language switch does, but it is this copy of the library's
// own news: the shell contract's store tells only switches (docs/adr/0054).
const arrivalListeners = new Set<() => void>();
function notifyArrival(): void {
  arrivalListeners.forEach((listener) => listener());
}
/** Called on every language switch and every arrival of a catalogue's messages in this front end. */
function subscribeText(listener: () => void): () => void {
  const unsubscribeSwitch = subscribeI18n(listener);
  arrivalListeners.add(listener);
  return () => {
    unsubscribeSwitch();
    arrivalListeners.delete(listener);
  };
}
const catalogues = new Set<Catalogue>();
const warned = new Set<string>();

function stateOf(catalogue: Catalogue): State {
  let state = states.get(catalogue);
  if (!state) states.set(catalogue, (state = { loaded: new Map(), pending: new Map(), compiled: new Map() }));
  return state;
}

function warnOnce(key: string, text: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(`[i18n] ${text}`);
}

function recordMissing(remote: string, locale: Locale, id: string): void {
  const key = `${remote}:${locale}:${id}`;
  const missing = (globalThis.__tuberMissingKeys ??= new Set());
  if (missing.has(key)) return;
  missing.add(key);
  warnOnce(
    key,
    locale === 'en'
      ? `${remote}: no message "${id}" in English; showing the id`
      : `${remote}: "${id}" has no ${locale} message; showing English`,
  );
}

/** Keys recorded as missing so far on this page ("<remote>:<locale>:<id>"). */
export function missingKeys(): string[] {
  return [...(globalThis.__tuberMissingKeys ?? [])];
}

/** Starts loading a catalogue's messages for a language (once; again after a failure). */
export function loadCatalogue(catalogue: Catalogue, locale: Locale): Promise<void> {
  if (locale === 'en') return Promise.resolve();
  const state = stateOf(catalogue);
  if (state.loaded.has(locale)) return Promise.resolve();
  const pending = state.pending.get(locale);
  if (pending) return pending;
  let request: Promise<Messages>;
  try {
    // The language's date data with its messages (dates.ts): a page shows both at once, or English.
    request = Promise.all([catalogue.load(locale), ensureDateLocale(locale)]).then(([messages]) => messages);
  } catch (error) {
    request = Promise.reject(error);
  }
  const loading = request.then(
    (messages) => {
      state.loaded.set(locale, messages && typeof messages === 'object' ? messages : {});
      state.pending.delete(locale);
      (globalThis.__tuberLoadedCatalogues ??= new Set()).add(`${catalogue.remote}:${locale}`);
      notifyArrival();
    },
    (error: unknown) => {
      // Offline before this language was ever fetched: English until it can be loaded.
      state.pending.delete(locale);
      warnOnce(
        `${catalogue.remote}:${locale}:load`,
        `${catalogue.remote}: could not load ${locale} messages (${String(error)}); showing English`,
      );
    },
  );
  state.pending.set(locale, loading);
  return loading;
}

onLocaleChange((locale) => catalogues.forEach((catalogue) => void loadCatalogue(catalogue, locale)));

/** One front end's messages: English in the bundle, the other languages through `load`. */
export function defineCatalogue(remote: string, en: Messages, load: Catalogue['load']): Catalogue {
  const catalogue: Catalogue = { remote, en, load };
  catalogues.add(catalogue);
  void loadCatalogue(catalogue, getLocale());
  return catalogue;
}

let parser: boolean | undefined;
/**
 * Whether this page's intl-messageformat can parse strings. Production builds alias the parser to its
 * no-parser build (build/webpack.ts), whose parse() throws; asked once, only when a string needs parsing.
 */
function hasParser(): boolean {
  if (parser === undefined) {
    try {
      new IntlMessageFormat('{probe}', 'en');
      parser = true;
    } catch {
      parser = false;
    }
  }
  return parser;
}

/** The message's AST: compiled at build time, or parsed here (development, Node tests); null when it cannot be read. */
function compiled(catalogue: Catalogue, locale: Locale, id: string, message: string | CompiledMessage): CompiledMessage | null {
  if (typeof message !== 'string') return message;
  const state = stateOf(catalogue);
  const key = `${locale}\u0000${id}`;
  if (state.compiled.has(key)) return state.compiled.get(key)!;
  if (!hasParser()) {
    // A remote built before its catalogues were compiled, mounted by a shell built without the parser
    // (the wrong deployment order, docs/adr/0046): its ICU strings cannot be read here. Broken-message
    // fallback for each, one warning for the catalogue.
    warnOnce(
      `${catalogue.remote}:uncompiled`,
      `${catalogue.remote}: messages are ICU strings but this page has no ICU parser; rebuild ${catalogue.remote} (its catalogues are compiled at build time)`,
    );
    state.compiled.set(key, null);
    return null;
  }
  let ast: CompiledMessage | null;
  try {
    // ignoreTag: "<" and ">" in copy are text, not markup.
    ast = new IntlMessageFormat(message, regionalTag(locale), undefined, { ignoreTag: true }).getAst() as CompiledMessage;
  } catch (error) {
    warnOnce(
      `${catalogue.remote}:${locale}:${id}:parse`,
      `${catalogue.remote}: ${locale} message "${id}" is not valid ICU (${String(error)})`,
    );
    ast = null;
  }
  state.compiled.set(key, ast);
  return ast;
}

const formattersByLocale = new Map<Locale, Formatters>();

/**
 * A message formatted straight from its AST with this front end's `Intl` objects (format.ts). Not through an
 * IntlMessageFormat per message: its constructor negotiates the locale with Intl.NumberFormat.supportedLocalesOf,
 * whose first call on a page costs 25–30 ms on a fast machine (the engine loads its list of locales) and was the
 * largest single cost of the feed's first render (issue 13). The output is the same: the same formatting over
 * the same AST, with the same default formats.
 */
function formatAst(ast: CompiledMessage, locale: Locale, values?: MessageValues): string {
  let formatters = formattersByLocale.get(locale);
  if (!formatters) formattersByLocale.set(locale, (formatters = messageFormatters(locale)));
  const parts = formatToParts(ast, regionalTag(locale), formatters, IntlMessageFormat.formats, values);
  return parts.length === 1 ? String(parts[0]!.value) : parts.map((part) => String(part.value)).join('');
}

function formatted(
  catalogue: Catalogue,
  locale: Locale,
  id: string,
  message: string | CompiledMessage,
  values?: MessageValues,
): string | null {
  // Plain text is its own output: no parser, no formatter (most messages, and all of them the build kept as strings).
  if (typeof message === 'string' && isPlainText(message)) return message;
  const ast = compiled(catalogue, locale, id, message);
  if (!ast) return null;
  try {
    return formatAst(ast, locale, values);
  } catch (error) {
    warnOnce(`${catalogue.remote}:${locale}:${id}:format`, `${catalogue.remote}: could not format ${locale} "${id}" (${String(error)})`);
    return null;
  }
}

/** Translates in a given language (English fallback per key). */
export function translateIn(catalogue: Catalogue, locale: Locale, id: string, values?: MessageValues): string {
  if (locale !== 'en') {
    const messages = stateOf(catalogue).loaded.get(locale);
    // Not loaded yet (or could not be): English meanwhile, not a missing key.
    if (messages) {
      const message = messages[id];
      if (!isMessage(message)) recordMissing(catalogue.remote, locale, id);
      else {
        const out = formatted(catalogue, locale, id, message, values);
        if (out !== null) return out;
      }
    }
  }
  const english = catalogue.en[id];
  if (!isMessage(english)) {
    recordMissing(catalogue.remote, 'en', id);
    return id;
  }
  return formatted(catalogue, 'en', id, english, values) ?? (typeof english === 'string' ? english : roughText(english));
}

/**
 * The last resort for an English message that cannot be formatted (a value missing): its text with each
 * argument as {name} and a plural or select by its "other" case, as the ICU string would have read.
 */
function roughText(ast: CompiledMessage): string {
  return ast
    .map((element) => {
      if (element.type === 0) return element.value;
      if (element.type === 7) return '#';
      if ('options' in element) {
        const other = element.options['other'];
        return other ? roughText(other.value) : `{${element.value}}`;
      }
      return 'value' in element ? `{${element.value}}` : '';
    })
    .join('');
}

/** Outside React: the message in the current language. */
export function translate(catalogue: Catalogue, id: string, values?: MessageValues): string {
  return translateIn(catalogue, getLocale(), id, values);
}

/** Whether the catalogue can show the current language now (English always can). */
function ready(catalogue: Catalogue, locale: Locale): boolean {
  return locale === 'en' || stateOf(catalogue).loaded.has(locale);
}

/** The translator for one catalogue; re-renders when the language changes or its messages arrive. */
export function useT(catalogue: Catalogue): (id: string, values?: MessageValues) => string {
  const snapshot = () => {
    const locale = getLocale();
    return `${locale}:${ready(catalogue, locale) ? 1 : 0}`;
  };
  const view = useSyncExternalStore(subscribeText, snapshot, snapshot);
  const locale = view.split(':')[0] as Locale;
  useEffect(() => {
    void loadCatalogue(catalogue, locale);
  }, [catalogue, locale]);
  // `view` also changes when this catalogue's messages for the language arrive: a new t re-renders its users.
  return useMemo(() => {
    const shown = view.split(':')[0] as Locale;
    return (id: string, values?: MessageValues) => translateIn(catalogue, shown, id, values);
  }, [catalogue, view]);
}
