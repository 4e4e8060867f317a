// The farmer remote's messages (issue 13): English bundled, the other four languages loaded on demand, each
// its own chunk. Ids are `<area>.<thing>`; review.json says which translations a native speaker should check.
// The build compiles each to ASTs (docs/adr/0046-precompiled-messages.md).
import { defineCatalogue, type Messages, type OtherLocale } from '@tuber/ui';
import en from './en.json';

const loaders: Record<OtherLocale, () => Promise<{ default: Messages }>> = {
  pcm: () => import('./pcm.json'),
  yo: () => import('./yo.json'),
  ha: () => import('./ha.json'),
  ig: () => import('./ig.json'),
};

export const catalogue = defineCatalogue('farmer', en, (locale) => loaders[locale]().then((m) => m.default));
