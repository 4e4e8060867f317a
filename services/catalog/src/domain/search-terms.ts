// The words a product is found by (ADR 0029): its name, description, tuber type (with the tuber's
// local names, tuber-synonyms.ts), business name and location, normalised the way a query is —
// lower case, accents and tone marks removed (NFD), split on anything that is not a letter or a
// digit, each word once. Stored on the product (`search_terms`, `location_terms`) by every write,
// and kept in the Redis read model's search sets. Pure: no I/O.
import { TUBER_TYPES, type TuberType } from '@tuber/contracts';
import { TUBER_SYNONYMS } from './tuber-synonyms.js';

/** Longer words are cut to this many characters (a prefix of a cut word still matches it). */
export const MAX_TERM_LENGTH = 24;
/** At most this many words of one product are searchable (name, tuber, business and place first). */
export const MAX_TERMS = 80;
export const MAX_LOCATION_TERMS = 12;
/** At most this many words of a query are used. */
export const MAX_QUERY_WORDS = 6;
/** Shorter query words match whole words only ("ji" is yam, not every word starting with "ji"). */
export const MIN_PREFIX_LENGTH = 3;

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** The normalised words of a text, in order of appearance, each once. */
export function wordsOf(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.normalize('NFD').replace(MARKS, '').toLowerCase().split(SEPARATORS)) {
    if (!raw) continue;
    const word = [...raw].slice(0, MAX_TERM_LENGTH).join('');
    if (seen.has(word)) continue;
    seen.add(word);
    words.push(word);
    if (words.length >= max) break;
  }
  return words;
}

const synonymWords = new Map<string, string[]>(TUBER_TYPES.map((tuber) => [tuber, TUBER_SYNONYMS[tuber].flatMap((s) => wordsOf(s.word))]));

/** The local names of a tuber type, normalised (empty for an unknown type). */
export function synonymsOf(tuber: string): string[] {
  return synonymWords.get(tuber) ?? [];
}

/** The tuber a word names, if it is one of the tuber types or their local names. */
export function tuberOfWord(word: string): TuberType | undefined {
  for (const tuber of TUBER_TYPES) {
    if (tuber === word || synonymWords.get(tuber)!.includes(word)) return tuber;
  }
  return undefined;
}

export interface SearchSource {
  product_name: string;
  description: string;
  tuber_type: string;
  business_name: string;
  location: string;
}

export function searchTermsOf(p: SearchSource): { search_terms: string[]; location_terms: string[] } {
  const text = [p.product_name, p.tuber_type, synonymsOf(p.tuber_type).join(' '), p.business_name, p.location, p.description].join(' ');
  return { search_terms: wordsOf(text, MAX_TERMS), location_terms: wordsOf(p.location, MAX_LOCATION_TERMS) };
}

/** The words of a query (search box or location filter): normalised like the products' words. */
export function normaliseQuery(text: string): string[] {
  return wordsOf(text, MAX_QUERY_WORDS);
}

/** Whether a query word matches a stored word: whole word, or by prefix from MIN_PREFIX_LENGTH characters. */
export function matchesWord(queryWord: string, term: string): boolean {
  return term === queryWord || (queryWord.length >= MIN_PREFIX_LENGTH && term.startsWith(queryWord));
}
