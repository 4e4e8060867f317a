// The landing remote's messages (issue 13): English in the bundle, the other languages fetched when chosen.
import { defineCatalogue } from '@tuber/ui';
import en from './en.json';

export const landingCatalogue = defineCatalogue('landing', en, (locale) =>
  import(`./${locale}.json`).then((m: { default: Record<string, string> }) => m.default),
);
