// Numbers, money and dates through `Intl`. Numbers are always in the Nigerian English style (₦1,500,
// 12,000): the way prices are written across the country whatever the language. Dates use the
// language's own month names when the browser has them, else en-NG.
import { useMemo, useSyncExternalStore } from 'react';
import type { Formatters } from 'intl-messageformat';
import type { Locale } from '@tuber/shell-contract';
import { regionalTag } from './locales.js';
import { getLocale, subscribeI18n } from '@tuber/shell-contract';

const NUMBER_LOCALE = 'en-NG';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) cache.set(key, (value = make()));
  return value;
}

function supported(kind: 'date' | 'plural', locale: Locale): string {
  const tag = regionalTag(locale);
  // Every engine has English; asking costs a page's first supportedLocalesOf (tens of ms on a cheap phone).
  if (locale === 'en') return tag;
  const check = kind === 'date' ? Intl.DateTimeFormat.supportedLocalesOf : Intl.PluralRules.supportedLocalesOf;
  try {
    return check([tag]).length > 0 ? tag : NUMBER_LOCALE;
  } catch {
    return NUMBER_LOCALE;
  }
}

function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cached(`n${JSON.stringify(options)}`, () => new Intl.NumberFormat(NUMBER_LOCALE, options));
}

function dateFormat(locale: Locale, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return cached(`d${locale}${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(supported('date', locale), options));
}

/** The `Intl` objects ICU messages use for one language (numbers en-NG, plurals and dates the language's own). */
export function messageFormatters(locale: Locale): Formatters {
  return {
    getNumberFormat: (_locales, options) => numberFormat(options as Intl.NumberFormatOptions),
    getDateTimeFormat: (_locales, options) => dateFormat(locale, options),
    getPluralRules: (_locales, options) =>
      cached(`p${locale}${JSON.stringify(options ?? {})}`, () => new Intl.PluralRules(supported('plural', locale), options)),
  };
}

export interface LocaleFormat {
  /** Naira (not kobo): money(1500) → "₦1,500", money(1500.5) → "₦1,500.50". */
  money(naira: number): string;
  /** number(12000) → "12,000". */
  number(n: number): string;
  /** A date ("2026-11-25", an ISO time or a Date): short → "25 Nov 2026", long → "25 November 2026" in English. */
  date(d: Date | string, style?: 'short' | 'long'): string;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function formatFor(locale: Locale): LocaleFormat {
  return {
    money(naira) {
      const decimals = Number.isInteger(naira) ? 0 : 2;
      return numberFormat({ style: 'currency', currency: 'NGN', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
        naira,
      );
    },
    number(n) {
      return numberFormat().format(n);
    },
    date(d, style = 'short') {
      const value = d instanceof Date ? d : new Date(d);
      if (Number.isNaN(value.getTime())) return String(d);
      // A calendar day ("2026-11-25") is the same day everywhere: format it in UTC, where it was parsed.
      const timeZone = typeof d === 'string' && CALENDAR_DAY.test(d) ? 'UTC' : undefined;
      const options: Intl.DateTimeFormatOptions = { dateStyle: style === 'long' ? 'long' : 'medium', ...(timeZone ? { timeZone } : {}) };
      return dateFormat(locale, options).format(value);
    },
  };
}

/** Formats with `Intl` for the current language; re-renders when it changes. */
export function useFormat(): LocaleFormat {
  const locale = useSyncExternalStore(subscribeI18n, getLocale, getLocale);
  return useMemo(() => formatFor(locale), [locale]);
}
