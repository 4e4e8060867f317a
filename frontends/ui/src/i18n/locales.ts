// The languages themselves are the shell contract's (the switch is one per page); this is what the library adds.
import type { Locale } from '@tuber/shell-contract';

/** The language as spoken in Nigeria, for `Intl` (dates, plural rules). */
export function regionalTag(locale: Locale): string {
  return `${locale}-NG`;
}
