// The five languages of the product (issue 13). Codes are BCP 47: `pcm` is Nigerian Pidgin.

export type Locale = 'en' | 'pcm' | 'yo' | 'ha' | 'ig';

/** Each language named in itself, in the order the switch lists them. */
export const LOCALES: readonly { code: Locale; label: string }[] = Object.freeze([
  { code: 'en', label: 'English' },
  { code: 'pcm', label: 'Pidgin' },
  { code: 'yo', label: 'Yorùbá' },
  { code: 'ha', label: 'Hausa' },
  { code: 'ig', label: 'Igbo' },
]);

export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && LOCALES.some((l) => l.code === value);
}
