// Webpack loader for the message catalogues (docs/adr/0046-precompiled-messages.md): turns each ICU string of
// src/i18n/<language>.json into the AST intl-messageformat would parse it into at run time, so production
// bundles leave the ICU parser out (webpack.ts aliases it to its no-parser build). A message that does not
// parse fails the build, naming the file, the id and the parser's error. Node-only.
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import type { LoaderContext } from 'webpack';
import { type Locale, LOCALES, isLocale } from '../../shell-contract/src/locales.js';
import { regionalTag } from '../src/i18n/locales.js';
import { type CompiledMessage, type Messages, isPlainText } from '../src/i18n/messages.js';

/** The catalogue files the loader compiles: src/i18n/<language>.json of any front end (not review.json). */
export const CATALOGUE_FILE = new RegExp(`[\\\\/]src[\\\\/]i18n[\\\\/](${LOCALES.map((l) => l.code).join('|')})\\.json$`);

interface ParseError extends Error {
  location?: { start: { line: number; column: number } };
}

/** The parser's error kind (e.g. EXPECT_ARGUMENT_CLOSING_BRACE) and where in the message it stopped. */
function describeParseError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { location } = error as ParseError;
  return location ? `${error.message} at line ${location.start.line}, column ${location.start.column}` : error.message;
}

/**
 * One message's AST, parsed exactly as the facade's `new IntlMessageFormat(message, regionalTag(locale), …)`
 * does (the same class, so the same locale resolution for date skeletons): "<" and ">" are text
 * (ignoreTag), number and date skeletons are parsed here so the browser needs no skeleton parser, and no
 * source locations (they would only add bytes).
 */
export function parseMessage(message: string, locale: Locale): CompiledMessage {
  return new IntlMessageFormat(message, regionalTag(locale), undefined, {
    ignoreTag: true,
    shouldParseSkeletons: true,
    captureLocation: false,
  }).getAst();
}

/**
 * A catalogue (the parsed JSON of one language) with every message compiled. Plain text stays a string:
 * it is its own output, the facade shows it without a parser, and a string is smaller than its AST.
 * Throws one error naming every message that is not valid ICU (file, id, parser error, the message).
 */
export function compileCatalogue(json: unknown, locale: Locale, file: string): Messages {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${file}: a catalogue is a flat object of messages`);
  const compiled: Messages = {};
  const problems: string[] = [];
  for (const [id, message] of Object.entries(json)) {
    if (typeof message !== 'string') {
      problems.push(`"${id}" is not a string`);
      continue;
    }
    let ast: CompiledMessage;
    try {
      ast = parseMessage(message, locale);
    } catch (error) {
      problems.push(`"${id}" is not valid ICU: ${describeParseError(error)}\n      ${message}`);
      continue;
    }
    const plain = isPlainText(message) && (ast.length === 0 || (ast.length === 1 && ast[0]!.type === 0 && ast[0]!.value === message));
    compiled[id] = plain ? message : ast;
  }
  if (problems.length > 0) throw new Error(`${file}: ${problems.length} message(s) cannot be compiled:\n  ${problems.join('\n  ')}`);
  return compiled;
}

/** The language a catalogue file is for, from its name (en.json → en). */
export function catalogueLocale(file: string): Locale {
  const code = path.basename(file, '.json');
  if (!isLocale(code)) throw new Error(`${file}: not a catalogue of one of the languages (${LOCALES.map((l) => l.code).join(', ')})`);
  return code;
}

export default function messagesLoader(this: LoaderContext<Record<string, never>>, source: string): string {
  const file = path.relative(this.rootContext || process.cwd(), this.resourcePath);
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${String(error)})`);
  }
  // Still JSON (the module's type stays "json"): webpack emits it as one JSON.parse of a string literal.
  return JSON.stringify(compileCatalogue(json, catalogueLocale(this.resourcePath), file));
}
