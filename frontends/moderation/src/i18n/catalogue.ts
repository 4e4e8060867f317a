// The moderation desk's messages (issue 26): English bundled, the other four languages loaded on demand, each
// its own chunk. review.json says which translations a native speaker should check.
import { defineCatalogue, translate, useT, type Messages, type OtherLocale } from '@tuber/ui';
import en from './en.json';

const loaders: Record<OtherLocale, () => Promise<{ default: Messages }>> = {
  pcm: () => import('./pcm.json'),
  yo: () => import('./yo.json'),
  ha: () => import('./ha.json'),
  ig: () => import('./ig.json'),
};

export const catalogue = defineCatalogue('moderation', en, (locale) => loaders[locale]().then((m) => m.default));

export type Values = Record<string, string | number | Date>;
export type Translator = (id: string, values?: Values) => string;
export const useDeskT = (): Translator => useT(catalogue);
export const tr: Translator = (id, values) => translate(catalogue, id, values);
