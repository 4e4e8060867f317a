// The translator the buyer's pure text functions take: a component passes useBuyerT()'s, which re-renders on a
// language change; without one (tests, plain modules) the current language is read through `translate`.
import { useLocale, type Locale } from '@tuber/shell-contract';
import { translate, useT } from '@tuber/ui';
import { catalogue } from './catalogue.js';

export type MessageValues = Record<string, string | number | Date>;
export type T = (id: string, values?: MessageValues) => string;

/** The current language's message, outside React. */
export const tr: T = (id, values) => translate(catalogue, id, values);

/** The buyer catalogue's translator, for components. */
export const useBuyerT = (): T => useT(catalogue);

export { useLocale, type Locale };
