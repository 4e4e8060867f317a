// The order e-mails' catalogues by language, and one function to say a message in one of them (ICU, via
// intl-messageformat, formatters kept). Numbers, ₦ and dates are formatted before they get here (en-NG).
import { DEFAULT_LOCALE, type Locale } from '@tuber/contracts';
import { IntlMessageFormat } from 'intl-messageformat';
import { en, type MailMessages } from './en.js';
import { ha } from './ha.js';
import { ig } from './ig.js';
import { pcm } from './pcm.js';
import { yo } from './yo.js';

export type MailKey = keyof typeof en;
export const MAIL_CATALOGUES: Record<Locale, MailMessages> = { en, pcm, yo, ha, ig };

const formats = new Map<string, IntlMessageFormat>();

/** `key` in `locale` with `values`; the English message when the language lacks it (never a bare key). */
export function say(locale: Locale, key: MailKey, values: Record<string, string | number> = {}): string {
  const catalogue = MAIL_CATALOGUES[locale] ?? MAIL_CATALOGUES[DEFAULT_LOCALE];
  const chosen = catalogue[key] ? locale : DEFAULT_LOCALE;
  const id = `${chosen}:${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new IntlMessageFormat(MAIL_CATALOGUES[chosen][key], chosen);
    formats.set(id, format);
  }
  return String(format.format(values));
}
