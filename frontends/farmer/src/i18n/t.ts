// The farmer remote's translator: `useFarmerT()` in components (re-renders when the language or its messages
// change), `tr()` in the pure modules the components call while rendering (so they follow the same language).
import { translate, useT } from '@tuber/ui';
import { catalogue } from './catalogue.js';

export type Values = Record<string, string | number | Date>;
export type Translator = (id: string, values?: Values) => string;

export const useFarmerT = (): Translator => useT(catalogue);
export const tr: Translator = (id, values) => translate(catalogue, id, values);
