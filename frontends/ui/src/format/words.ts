// Description previews: the first N words of a text, and whether anything was left out.

export interface WordCut {
  /** The first N words, joined by single spaces. */
  text: string;
  /** True when the original had more than N words (the UI then shows "see more"). */
  isCut: boolean;
}

export function firstWords(text: string, count: number): WordCut {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`word count must be a whole number ≥ 0, got ${count}`);
  const words = text.trim().split(/\s+/).filter(Boolean);
  return { text: words.slice(0, count).join(' '), isCut: words.length > count };
}
