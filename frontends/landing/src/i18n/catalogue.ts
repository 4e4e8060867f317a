// The landing remote's messages (issue 13): English in the bundle, the other languages fetched when chosen.
// The build compiles each to ASTs (docs/adr/0046-precompiled-messages.md). One import per language, not a
// template path: webpack then makes exactly these four chunks (a template would also make chunks of
// en.json and review.json).
import { defineCatalogue, type Messages, type OtherLocale } from '@tuber/ui';
import en from './en.json';

const languages: Record<OtherLocale, () => Promise<{ default: Messages }>> = {
  pcm: () => import('./pcm.json'),
  yo: () => import('./yo.json'),
  ha: () => import('./ha.json'),
  ig: () => import('./ig.json'),
};

export const landingCatalogue = defineCatalogue('landing', en, (locale) => languages[locale]().then((m) => m.default));
