// The shell's messages (issue 13): English in the bundle, the other languages fetched when chosen.
import { defineCatalogue } from '@tuber/ui';
import en from './en.json';

export const shellCatalogue = defineCatalogue('shell', en, (locale) =>
  import(`./${locale}.json`).then((m: { default: Record<string, string> }) => m.default),
);
