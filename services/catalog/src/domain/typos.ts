// Search that forgives (issue 25): a query word that matches no word of any product, whole or by prefix, is
// read as the dictionary's words within a few edits of it (1 edit for words of 4 to 7 letters, 2 above;
// none below 4, where one edit makes another word), and a word that names a tuber in one of the
// interfaces' languages is read as that tuber. Only such words are corrected, so an exact or prefix match
// always wins over a guess. Pure: the dictionary is handed in (read-model.ts keeps it). Measured in
// bench/ (P10 with typos) and docs/adr/0065-search-that-forgives.md.
import { TUBER_TYPES, type TuberType } from '@tuber/contracts';
import { MIN_PREFIX_LENGTH, tuberOfWord, wordsOf } from './search-terms.js';

/** Edits a word of this many letters may be away from a dictionary word and still find it. */
export function typoBudget(length: number): number {
  if (length < 4) return 0;
  return length <= 7 ? 1 : 2;
}

/**
 * Whether a and b are at most `max` edits apart: insertions, deletions, substitutions, and a swap of two
 * neighbouring letters counting as one (optimal string alignment). Bounded: rows are cut at `max`, and the
 * answer is known as soon as a row has nothing at or below it.
 */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  if (a === b) return true;
  const n = b.length;
  let before = new Array<number>(n + 1).fill(0);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(n + 1);
    current[0] = i;
    let best = current[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return false;
    before = previous;
    previous = current;
  }
  return previous[n]! <= max;
}

/** A word with a digit is a number or a code ("lot 1204", "50kg"): a near one is another thing, never a typo. */
const HAS_DIGIT = /\d/;

/** The letters a word has, as bits (a letter's code modulo 31): a cheap bound on how far two words are. */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) % 31);
  return mask;
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The words of every product, kept by length for the typo search. Each edit adds or removes at most one
 * letter's presence, a substitution both: words whose letter sets differ in more than 2 × budget letters
 * are passed over without the edit-distance table. That bound keeps a scan of tens of thousands of words
 * under a millisecond (P10 with typos at 100 000 products, docs/performance.md).
 */
export class TypoDictionary {
  readonly #byLength = new Map<number, { words: string[]; masks: number[] }>();
  readonly #sorted: string[];
  readonly size: number;

  constructor(words: Iterable<string>) {
    this.#sorted = [...new Set(words)].sort();
    this.size = this.#sorted.length;
    for (const word of this.#sorted) {
      if (HAS_DIGIT.test(word)) continue;
      let bucket = this.#byLength.get(word.length);
      if (!bucket) this.#byLength.set(word.length, (bucket = { words: [], masks: [] }));
      bucket.words.push(word);
      bucket.masks.push(letterMask(word));
    }
  }

  /** Whether some word is this word, or (from 3 letters) starts with it: the search finds it without help. */
  matches(word: string): boolean {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#sorted[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    const next = this.#sorted[lo];
    return next !== undefined && (next === word || (word.length >= MIN_PREFIX_LENGTH && next.startsWith(word)));
  }

  /** The words within the word's typo budget, nearest first (then alphabetical), at most `limit`. */
  near(word: string, limit = 8, budget = typoBudget(word.length)): string[] {
    if (budget === 0 || HAS_DIGIT.test(word)) return [];
    const mask = letterMask(word);
    const found: { word: string; edits: number }[] = [];
    for (let length = word.length - budget; length <= word.length + budget; length++) {
      const bucket = this.#byLength.get(length);
      if (!bucket) continue;
      const { words, masks } = bucket;
      for (let i = 0; i < words.length; i++) {
        if (bitCount(mask ^ masks[i]!) > 2 * budget) continue;
        const candidate = words[i]!;
        if (candidate === word) continue;
        // The smallest budget it fits in is its distance.
        for (let edits = 1; edits <= budget; edits++) {
          if (withinEdits(word, candidate, edits)) {
            found.push({ word: candidate, edits });
            break;
          }
        }
      }
    }
    found.sort((x, y) => x.edits - y.edits || (x.word < y.word ? -1 : 1));
    return found.slice(0, limit).map((f) => f.word);
  }
}

/**
 * The names the five interfaces give the tubers (their catalogues' tuber.* messages), normalised. A query
 * word that is one of them finds that tuber's products, whether or not the product's own words have it.
 * test/unit/search-terms.test.ts checks every front end's catalogue against this list.
 */
export const INTERFACE_TUBER_WORDS: Record<TuberType, string[]> = {
  yam: ['yam', 'yams', 'isu', 'doya', 'ji'],
  cassava: ['cassava', 'kasava', 'gbaguda', 'rogo', 'akpu'],
  potato: ['potato', 'poteto', 'irish', 'odunkun', 'oyinbo', 'dankalin', 'turawa'],
  'sweet potato': ['sweet', 'potato', 'anamo', 'odunkun', 'dankali', 'nduku'],
  tumeric: ['tumeric', 'turmeric', 'ata', 'ile', 'pupa', 'gangamau', 'nwandumo'],
  garlic: ['garlic', 'galik', 'galiki', 'aayu', 'ayu', 'tafarnuwa'],
  ginger: ['ginger', 'atale', 'citta', 'jinja'],
};

/** What a query word may be read as when it matches nothing itself: dictionary words, or tuber types. */
export interface WordAlternatives {
  words: string[];
  tubers: TuberType[];
}

const interfaceTubers = new Map<string, TuberType[]>();
for (const tuber of TUBER_TYPES) {
  for (const word of INTERFACE_TUBER_WORDS[tuber].flatMap((w) => wordsOf(w))) {
    const list = interfaceTubers.get(word) ?? [];
    if (!list.includes(tuber)) list.push(tuber);
    interfaceTubers.set(word, list);
  }
}

/** The tubers an interface word names (a word such as "ji" or "anamo" can name two). */
export function tubersOfInterfaceWord(word: string): TuberType[] {
  const indexed = tuberOfWord(word);
  return interfaceTubers.get(word) ?? (indexed ? [indexed] : []);
}

/**
 * For each query word: null when the dictionary finds it (whole or by prefix) or nothing is near it;
 * otherwise the words within its typo budget and the tubers it names. An empty dictionary (the read model
 * not loaded yet) corrects nothing but the tuber names.
 */
export function alternativesOf(words: readonly string[], dictionary: TypoDictionary | undefined): (WordAlternatives | null)[] {
  return words.map((word) => {
    if (dictionary?.matches(word)) return null;
    const tubers = tubersOfInterfaceWord(word);
    const near = dictionary ? dictionary.near(word) : [];
    return near.length || tubers.length ? { words: near, tubers } : null;
  });
}
