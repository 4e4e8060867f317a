// What a catalogue message is (docs/adr/0046-precompiled-messages.md): an ICU string, or the AST the build
// parsed it into (build/messages-loader.ts). Shared by the facade and the build loader so both agree on
// which strings are plain text. No imports with side effects: the build's loader runs this in Node.
import type { IntlMessageFormat } from 'intl-messageformat';

/** A message parsed at build time: intl-messageformat's AST (MessageFormatElement[]). */
export type CompiledMessage = Exclude<ConstructorParameters<typeof IntlMessageFormat>[0], string>;

/** One catalogue: id → ICU string, or its precompiled AST. */
export type Messages = Record<string, string | CompiledMessage>;

// The characters that make a string more than text in ICU as the facade reads it (ignoreTag: "<" and ">"
// are text): arguments and plurals ({ }), quoting ('), the plural count (#). A string without any of
// them is its own formatted output, so it needs no parser, at build time or at run time.
const ICU_SYNTAX = /[{}'#]/;

/** Whether a string message formats to itself (no ICU syntax), so it can be shown without parsing. */
export function isPlainText(message: string): boolean {
  return !ICU_SYNTAX.test(message);
}

/** Whether a catalogue value is a message at all (a string or an AST). */
export function isMessage(value: unknown): value is string | CompiledMessage {
  return typeof value === 'string' || Array.isArray(value);
}
