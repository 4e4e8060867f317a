import { describe, expect, it } from 'vitest';
import { TUBER_TYPES } from '@tuber/contracts';
import { SYNONYM_SOURCES, TUBER_SYNONYMS } from '../../src/domain/tuber-synonyms.js';
import { matchesWord, normaliseQuery, searchTermsOf, synonymsOf, tuberOfWord, wordsOf, MAX_TERMS } from '../../src/domain/search-terms.js';

describe('the synonym list (reviewed data)', () => {
  it('names every one of the seven tubers, and only those', () => {
    expect(Object.keys(TUBER_SYNONYMS).sort()).toEqual([...TUBER_TYPES].sort());
    for (const tuber of TUBER_TYPES) expect(TUBER_SYNONYMS[tuber].length, tuber).toBeGreaterThan(0);
  });

  it('gives every entry a language and a published source that is listed', () => {
    for (const [tuber, entries] of Object.entries(TUBER_SYNONYMS)) {
      for (const entry of entries) {
        expect(['yoruba', 'hausa', 'igbo', 'pidgin', 'english'], `${tuber}: ${entry.word}`).toContain(entry.language);
        expect(SYNONYM_SOURCES[entry.source], `${tuber}: ${entry.word}`).toMatch(/\d{4}/);
      }
    }
  });

  it('keeps every entry one word, and no word names two tubers (nor another tuber type)', () => {
    const owner = new Map<string, string>();
    for (const tuber of TUBER_TYPES) for (const word of wordsOf(tuber)) owner.set(word, tuber);
    for (const [tuber, entries] of Object.entries(TUBER_SYNONYMS)) {
      for (const entry of entries) {
        const words = wordsOf(entry.word);
        expect(words, entry.word).toHaveLength(1);
        const seen = owner.get(words[0]!);
        if (seen && !(tuber === 'tumeric' && words[0] === 'tumeric')) expect(seen, `${entry.word} names ${seen} and ${tuber}`).toBe(tuber);
        owner.set(words[0]!, tuber);
      }
    }
  });

  it('knows the names the issue gives: isu is yam, gbaguda cassava, dankali sweet potato, atale ginger, ayu garlic', () => {
    expect(tuberOfWord('isu')).toBe('yam');
    expect(tuberOfWord('doya')).toBe('yam');
    expect(tuberOfWord('ji')).toBe('yam');
    for (const w of ['gbaguda', 'ege', 'rogo', 'akpu']) expect(tuberOfWord(w), w).toBe('cassava');
    for (const w of ['anamo', 'dankali']) expect(tuberOfWord(w), w).toBe('sweet potato');
    for (const w of ['atale', 'citta']) expect(tuberOfWord(w), w).toBe('ginger');
    for (const w of ['ayu', 'tafarnuwa']) expect(tuberOfWord(w), w).toBe('garlic');
    expect(tuberOfWord('turmeric')).toBe('tumeric');
    expect(tuberOfWord('bread')).toBeUndefined();
  });
});

describe('normalisation', () => {
  it('lower-cases, strips accents and tone marks, splits on anything but letters and digits, each word once', () => {
    expect(wordsOf('Ìṣù  Ọdúnkún, ÈGÉ-gbàgúdà / isu 50kg')).toEqual(['isu', 'odunkun', 'ege', 'gbaguda', '50kg']);
    expect(normaliseQuery('  Àkpụ!! ')).toEqual(['akpu']);
    expect(normaliseQuery('')).toEqual([]);
    expect(normaliseQuery('a b c d e f g h')).toHaveLength(6);
  });

  it('bounds word length and count', () => {
    expect(wordsOf('x'.repeat(100))[0]).toHaveLength(24);
    const many = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const terms = searchTermsOf({
      product_name: 'Fresh yam',
      description: many,
      tuber_type: 'yam',
      business_name: 'Ade Farms',
      location: 'Ibadan, Oyo',
    });
    expect(terms.search_terms).toHaveLength(MAX_TERMS);
    // name, tuber, its local names, business and place come before the description
    expect(terms.search_terms).toEqual(expect.arrayContaining(['fresh', 'yam', 'isu', 'doya', 'ji', 'ade', 'farms', 'ibadan', 'oyo']));
    expect(terms.location_terms).toEqual(['ibadan', 'oyo']);
  });

  it("adds the tuber type's local names to a product's words", () => {
    const { search_terms } = searchTermsOf({
      product_name: 'Cassava tubers',
      description: 'Sweet, dug this week',
      tuber_type: 'cassava',
      business_name: 'Ọlá Farms',
      location: 'Abẹ́òkúta',
    });
    expect(search_terms).toEqual(
      expect.arrayContaining(['cassava', 'tubers', 'gbaguda', 'rogo', 'akpu', 'ola', 'farms', 'abeokuta', 'sweet']),
    );
    expect(synonymsOf('sweet potato')).toContain('dankali');
  });

  it('matches by prefix from three characters, short words whole', () => {
    expect(matchesWord('cass', 'cassava')).toBe(true);
    expect(matchesWord('ji', 'jigbo')).toBe(false);
    expect(matchesWord('ji', 'ji')).toBe(true);
    expect(matchesWord('yam', 'yams')).toBe(true);
    expect(matchesWord('yams', 'yam')).toBe(false);
  });
});
