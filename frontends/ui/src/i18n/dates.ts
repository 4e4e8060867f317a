// Dates and times in the reader's language and in Lagos time (issue 25): always through Intl, never from
// hand-made month names. Browsers without date data for Yoruba, Hausa, Igbo or Nigerian Pidgin (Chromium's
// ICU has none of the four; it then answered in US English, "Nov 28, 2026") get it from CLDR through
// @formatjs/intl-datetimeformat, loaded with the language's messages (catalogue.ts) and used without
// replacing the page's own Intl (a ponyfill). Nigeria keeps UTC+1 all year, so a Lagos time is formatted
// as UTC one hour on: the ponyfill then needs no time-zone data (800 KB).
import type { Locale } from '@tuber/shell-contract';
import { getLocale } from '@tuber/shell-contract';
import { regionalTag } from './locales.js';

export const LAGOS_TIME_ZONE = 'Africa/Lagos';
const LAGOS_OFFSET_MS = 60 * 60 * 1000;

type Formatter = Pick<Intl.DateTimeFormat, 'format' | 'formatToParts'>;
type FormatterMaker = new (locale: string, options: Intl.DateTimeFormatOptions) => Formatter;

/** The ponyfill and the languages whose CLDR data it holds, once one was needed. */
let ponyfill: FormatterMaker | undefined;
const ponyfilled = new Set<string>();
const loading = new Map<string, Promise<void>>();

const languageData: Record<string, () => Promise<unknown>> = {
  yo: () => import('@formatjs/intl-datetimeformat/locale-data/yo.js'),
  ha: () => import('@formatjs/intl-datetimeformat/locale-data/ha.js'),
  ig: () => import('@formatjs/intl-datetimeformat/locale-data/ig.js'),
  pcm: () => import('@formatjs/intl-datetimeformat/locale-data/pcm.js'),
};

function nativeHas(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
  } catch {
    return false;
  }
}

const nativeSupport = new Map<string, boolean>();
function native(locale: Locale): boolean {
  let has = nativeSupport.get(locale);
  if (has === undefined) nativeSupport.set(locale, (has = locale === 'en' || nativeHas(regionalTag(locale)) || nativeHas(locale)));
  return has;
}

/**
 * Makes dates in `locale` possible: nothing when the browser has its data, else the ponyfill and the
 * language's CLDR data (once). Never fails: without them dates are written in Nigerian English.
 */
export function ensureDateLocale(locale: Locale): Promise<void> {
  if (native(locale) || ponyfilled.has(locale) || !languageData[locale]) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = (async () => {
      const pony = await import('@formatjs/intl-datetimeformat');
      const DateTimeFormat = pony.DateTimeFormat as unknown as FormatterMaker & { __addLocaleData(...data: unknown[]): void };
      await languageData[locale]!();
      // The data files hand themselves to a global Intl.DateTimeFormat.__addLocaleData when there is one (a
      // polyfilled page), else queue themselves here for the ponyfill to take.
      const queue = (globalThis as { __FORMATJS_DATETIMEFORMAT_DATA__?: unknown[] }).__FORMATJS_DATETIMEFORMAT_DATA__;
      for (const data of queue?.splice(0) ?? []) DateTimeFormat.__addLocaleData(data);
      ponyfill = DateTimeFormat;
      ponyfilled.add(locale);
    })().catch(() => {
      loading.delete(locale);
    });
    loading.set(locale, pending);
  }
  return pending;
}

const formatters = new Map<string, Formatter>();

/**
 * A formatter for `locale`: the browser's own when it has the language, the ponyfill's when loaded, Nigerian
 * English otherwise. `lagos`: the time of day in Lagos (else the date is taken as UTC, for calendar days).
 */
function formatter(locale: Locale, options: Intl.DateTimeFormatOptions, lagos: boolean): { format: Formatter; shift: number } {
  const useNative = native(locale);
  const usePony = !useNative && ponyfilled.has(locale) && ponyfill !== undefined;
  const key = `${locale}|${useNative ? 'n' : usePony ? 'p' : 'e'}|${lagos ? 'l' : 'u'}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    if (useNative) format = new Intl.DateTimeFormat(regionalTag(locale), { ...options, timeZone: lagos ? LAGOS_TIME_ZONE : 'UTC' });
    else if (usePony) format = new ponyfill!(locale, { ...options, timeZone: 'UTC' });
    else format = new Intl.DateTimeFormat('en-NG', { ...options, timeZone: lagos ? LAGOS_TIME_ZONE : 'UTC' });
    formatters.set(key, format);
  }
  return { format, shift: usePony && lagos ? LAGOS_OFFSET_MS : 0 };
}

/** Minutes always in two digits ("10:04", not "10:4" as one CLDR pattern has it). */
function written(format: Formatter, date: Date): string {
  return format
    .formatToParts(date)
    .map((part) => (part.type === 'minute' && part.value.length === 1 ? `0${part.value}` : part.value))
    .join('');
}

/** "2027-01-12" → "12 Jan 2027" in the language (a calendar day: no time zone applies). */
export function dayWords(day: string, options: { weekday?: boolean; year?: boolean } = {}, locale: Locale = getLocale()): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  if (Number.isNaN(date.getTime())) return day;
  const { format } = formatter(
    locale,
    { day: 'numeric', month: 'short', ...(options.year === false ? {} : { year: 'numeric' }), ...(options.weekday ? { weekday: 'short' } : {}) },
    false,
  );
  return written(format, date);
}

/** A moment ("2026-11-28T10:04:00Z") as "28 Nov 2026, 11:04": Lagos time, in the language. */
export function momentWords(iso: string | Date, options: { seconds?: boolean } = {}, locale: Locale = getLocale()): string {
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const { format, shift } = formatter(
    locale,
    {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(options.seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
    },
    true,
  );
  return written(format, new Date(date.getTime() + shift));
}
