// A month's name in the reader's language ("August", "Ògún"…) for the seasonal hint, through Intl as ADR 0066
// asks (never a hand-made list): the engine's own data when it has the language, else the FormatJS ponyfill that
// @tuber/ui's ensureDateLocale loads with the language's CLDR data (Chromium has none for yo, ha, ig, pcm).
// Here rather than in @tuber/ui, whose day and moment formatters have no month-alone form, until it has one.
import { useEffect, useState } from 'react';
import { useLocale, type Locale } from '@tuber/shell-contract';
import { ensureDateLocale, regionalTag } from '@tuber/ui';

type MonthFormat = Pick<Intl.DateTimeFormat, 'format'>;

const OPTIONS: Intl.DateTimeFormatOptions = { month: 'long', timeZone: 'UTC' };

function engineHas(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
  } catch {
    return false;
  }
}

/** The month-name format for `locale`: the engine's, the ponyfill's, or Nigerian English when neither can. */
async function monthFormat(locale: Locale): Promise<MonthFormat> {
  const tag = regionalTag(locale);
  if (locale === 'en' || engineHas(tag)) return new Intl.DateTimeFormat(tag, OPTIONS);
  try {
    await ensureDateLocale(locale);
    const { DateTimeFormat } = await import('@formatjs/intl-datetimeformat');
    if (DateTimeFormat.supportedLocalesOf([locale]).length > 0) return new DateTimeFormat(locale, OPTIONS) as MonthFormat;
  } catch {
    // Falls through to English below: a hint with an English month beats no hint.
  }
  return new Intl.DateTimeFormat('en-NG', OPTIONS);
}

/** "2026-08-15" as the month's name; 1 = January. */
export async function monthName(month: number, locale: Locale): Promise<string> {
  const format = await monthFormat(locale);
  return format.format(new Date(Date.UTC(2026, month - 1, 15)));
}

/** The month's name in the chosen language, or null while it is being made (the hint waits for it). */
export function useMonthName(month: number | null): string | null {
  const { locale } = useLocale();
  const [name, setName] = useState<{ key: string; text: string } | null>(null);
  const key = `${locale}:${month}`;
  useEffect(() => {
    if (month === null) return;
    let current = true;
    void monthName(month, locale).then((text) => {
      if (current) setName({ key: `${locale}:${month}`, text });
    });
    return () => {
      current = false;
    };
  }, [locale, month]);
  return name?.key === key ? name.text : null;
}
