// The buyer remote's messages (issue 13): English bundled, each other language a chunk of its own, loaded when
// the buyer picks it. Ids are `<area>.<thing>`; the English is the spec's copy. One import per language (not a
// template path) so the bundler makes exactly these four chunks. The build compiles each to ASTs
// (docs/adr/0046-precompiled-messages.md).
import { defineCatalogue, type Messages, type OtherLocale } from '@tuber/ui';
import en from './en.json';

const languages: Record<OtherLocale, () => Promise<{ default: Messages }>> = {
  pcm: () => import('./pcm.json'),
  yo: () => import('./yo.json'),
  ha: () => import('./ha.json'),
  ig: () => import('./ig.json'),
};

export const catalogue = defineCatalogue('buyer', en, (locale) => languages[locale]().then((m) => m.default));
