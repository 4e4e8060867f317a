// The i18n facade (issue 13, docs/adr/0041-i18n.md): front ends use only these names, never
// intl-messageformat itself, so the library can change behind it.
// The chosen language itself (getLocale, setLocale, useLocale…) is the shell contract's: one per page.
export { regionalTag } from './locales.js';
export {
  defineCatalogue,
  loadCatalogue,
  missingKeys,
  translate,
  translateIn,
  useT,
  type Catalogue,
  type CompiledMessage,
  type MessageValues,
  type Messages,
  type OtherLocale,
} from './catalogue.js';
export { formatFor, useFormat, type LocaleFormat } from './format.js';
export { dayWords, ensureDateLocale, LAGOS_TIME_ZONE, momentWords } from './dates.js';
