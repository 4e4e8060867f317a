// A failure in the reader's language (issue 25, docs/adr/0064): the services answer problem details with a
// stable code (contracts/src/problems.ts); this words the code, with its values, from this library's own
// catalogue (src/i18n/<language>.json, `problem.<code in lowercase>`). The English `message` of an answer is
// never shown: a code this copy does not know yet (a newer service) is worded by its status instead.
import { ApiError } from '@tuber/shell-contract';
import { useCallback } from 'react';
import en from './i18n/en.json';
import { defineCatalogue, translate, useT, type MessageValues, type Messages, type OtherLocale } from './i18n/index.js';

const languages: Record<OtherLocale, () => Promise<{ default: Messages }>> = {
  pcm: () => import('./i18n/pcm.json'),
  yo: () => import('./i18n/yo.json'),
  ha: () => import('./i18n/ha.json'),
  ig: () => import('./i18n/ig.json'),
};

/** The words for every error code, and for failures that never reached a server. */
export const problemCatalogue = defineCatalogue('ui', en as Messages, (locale) => languages[locale]().then((m) => m.default));

type Translate = (id: string, values?: MessageValues) => string;

/** The catalogue id of a code, or undefined when this copy has no words for it. */
export function problemId(code: unknown): string | undefined {
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(code)) return undefined;
  const id = `problem.${code.toLowerCase()}`;
  return id in en ? id : undefined;
}

interface ProblemLike {
  statusCode?: unknown;
  code?: unknown;
  params?: unknown;
  errors?: unknown;
}

function valuesOf(params: unknown): MessageValues {
  if (!params || typeof params !== 'object') return {};
  const values: MessageValues = {};
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number') values[name] = value;
  }
  return values;
}

/** The field problems of an answer that this copy can word: [field, code, values]. */
function fieldsOf(errors: unknown): { field: string; id: string; values: MessageValues }[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const e = entry as { field?: unknown; code?: unknown; params?: unknown };
    const id = problemId(e?.code);
    return typeof e?.field === 'string' && id ? [{ field: e.field, id, values: valuesOf(e.params) }] : [];
  });
}

function byStatus(status: number, t: Translate): string {
  const exact = `problem.status_${status}`;
  if (exact in en) return t(exact);
  return t(status >= 500 ? 'problem.status_5xx' : 'problem.status_4xx');
}

/** The words for a failure: an ApiError (by its code, else its status), or anything else thrown. */
export function problemWords(error: unknown, t: Translate): string {
  const problem = (error && typeof error === 'object' ? error : {}) as ProblemLike;
  const status = typeof problem.statusCode === 'number' ? problem.statusCode : undefined;
  const id = problemId(problem.code);
  const fields = fieldsOf(problem.errors);
  // A form's refusal says what is wrong with the first field; a refused accept, every line.
  if (problem.code === 'VALIDATION_FAILED' && fields[0]) return t(fields[0].id, fields[0].values);
  if (problem.code === 'STOCK_SHORT' && fields.length) return fields.map((f) => t(f.id, f.values)).join(' ');
  if (id) return t(id, valuesOf(problem.params));
  if (status === 0) {
    // A shell contract of 1.0 makes offline errors without a code.
    return problem instanceof ApiError && problem.error === 'Offline' ? t('problem.offline') : t('problem.network_failed');
  }
  if (status !== undefined && status >= 400) return byStatus(status, t);
  // fetch's own TypeError ("Failed to fetch", "Load failed", "NetworkError …"): the network, not the page.
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) return t('problem.network_failed');
  return t('problem.status_5xx');
}

/** Outside React: the words for a failure in the current language. */
export function problemText(error: unknown): string {
  return problemWords(error, (id, values) => translate(problemCatalogue, id, values));
}

/** The words for each field a refusal names ("body.phone" → "Enter a Nigerian phone number…"), for forms. */
export function fieldProblemTexts(error: unknown, t: Translate = (id, values) => translate(problemCatalogue, id, values)): Record<string, string> {
  const problem = (error && typeof error === 'object' ? error : {}) as ProblemLike;
  return Object.fromEntries(fieldsOf(problem.errors).map((f) => [f.field, t(f.id, f.values)]));
}

/** In React: the words for a failure, again in the new language when the reader switches. */
export function useProblemText(): (error: unknown) => string {
  const t = useT(problemCatalogue);
  return useCallback((error: unknown) => problemWords(error, t), [t]);
}

/** Whether a failure is the network's (offline, no answer): worth trying again by itself when the network is back. */
export function isNetworkFailure(error: unknown): boolean {
  const problem = (error && typeof error === 'object' ? error : {}) as ProblemLike;
  if (problem.statusCode === 0) return true;
  return error instanceof TypeError && /fetch|network|load failed/i.test(error.message);
}
