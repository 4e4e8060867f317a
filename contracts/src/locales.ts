// The product's languages (issue 13, docs/adr/0044-server-languages.md): English, Nigerian Pidgin, Yoruba,
// Hausa and Igbo, by the codes the front ends, Keycloak's realm and theme, and the services' e-mails share.
import { Type } from '@sinclair/typebox';

export const LOCALES = ['en', 'pcm', 'yo', 'ha', 'ig'] as const;
export type Locale = (typeof LOCALES)[number];
/** The fallback for anyone whose language is not known. */
export const DEFAULT_LOCALE: Locale = 'en';

export const LocaleSchema = Type.Union(
  LOCALES.map((locale) => Type.Literal(locale)),
  { description: 'en, pcm (Nigerian Pidgin), yo, ha or ig' },
);

/**
 * The product language for a stored or claimed value ("yo", "yo-NG", "YO", ["ha"] as Keycloak keeps
 * attributes), or undefined when it names none of ours.
 */
export function localeOf(value: unknown): Locale | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'string') return undefined;
  const language = first.trim().toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(language ?? '') ? (language as Locale) : undefined;
}
