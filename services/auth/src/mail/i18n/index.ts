// The auth e-mails' catalogues by language, and one function to say a message in one of them (ICU, via
// intl-messageformat; <tag>…</tag> parts rendered by the caller's functions, for links in the HTML part).
import { DEFAULT_LOCALE, type Locale } from '@tuber/contracts';
import { IntlMessageFormat } from 'intl-messageformat';
import { en, type AuthMailMessages } from './en.js';
import { ha } from './ha.js';
import { ig } from './ig.js';
import { pcm } from './pcm.js';
import { yo } from './yo.js';

export type AuthMailKey = keyof typeof en;
export const AUTH_MAIL_CATALOGUES: Record<Locale, AuthMailMessages> = { en, pcm, yo, ha, ig };

type Value = string | number | ((chunks: string[]) => string);
const formats = new Map<string, IntlMessageFormat>();

/** `key` in `locale` with `values`; the English message when the language lacks it. */
export function say(locale: Locale, key: AuthMailKey, values: Record<string, Value> = {}): string {
  const chosen = AUTH_MAIL_CATALOGUES[locale]?.[key] ? locale : DEFAULT_LOCALE;
  const id = `${chosen}:${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new IntlMessageFormat(AUTH_MAIL_CATALOGUES[chosen][key], chosen);
    formats.set(id, format);
  }
  const said = format.format<string>(values);
  return Array.isArray(said) ? said.join('') : String(said);
}
