// For the catalogue tests (test/unit/i18n-*.test.ts): what an ICU message asks for, read with the same
// parser and options the build compiles catalogues with (build/messages-loader.ts). Not exported from
// @tuber/ui (no page needs it).
import { IntlMessageFormat } from 'intl-messageformat';
import type { CompiledMessage } from './messages.js';

interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

// intl-messageformat's element types (TYPE in @formatjs/icu-messageformat-parser).
const KIND: Record<number, string> = { 1: 'argument', 2: 'number', 3: 'date', 4: 'time', 5: 'select', 6: 'plural' };

function walk(elements: Element[], found: Map<string, string>): void {
  for (const element of elements) {
    const kind = KIND[element.type];
    if (kind && typeof element.value === 'string') {
      // A plain {name} next to {name, number} names the same value: keep the more specific kind.
      if (!found.has(element.value) || found.get(element.value) === 'argument') found.set(element.value, kind);
    }
    for (const option of Object.values(element.options ?? {})) walk(option.value, found);
    if (element.children) walk(element.children, found);
  }
}

/** The arguments of an ICU message or of its precompiled AST, "name:kind" sorted (kind: argument, number,
 *  date, time, select, plural). Throws when the message is not valid ICU. */
export function messageArguments(message: string | CompiledMessage, locale = 'en-NG'): string[] {
  const ast = (typeof message === 'string'
    ? new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).getAst()
    : message) as unknown as Element[];
  const found = new Map<string, string>();
  walk(ast, found);
  return [...found].map(([name, kind]) => `${name}:${kind}`).sort();
}
