// The i18n facade (issue 13, docs/adr/0041-i18n.md): front ends use only these names, never
// intl-messageformat itself, so the library can change behind it.
export { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from './locales.js';
export { LOCALE_STORAGE_KEY, getLocale, onLocaleChange, setLocale, subscribeI18n, useLocale } from './store.js';
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
