// Search that forgives (issue 25): which words are corrected, to what, and the interfaces' tuber names.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wordsOf } from '../../src/domain/search-terms.js';
import { alternativesOf, INTERFACE_TUBER_WORDS, TypoDictionary, tubersOfInterfaceWord, typoBudget, withinEdits } from '../../src/domain/typos.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and a swap of neighbours as one edit each', () => {
    expect(withinEdits('yamm', 'yam', 1)).toBe(true);
    expect(withinEdits('casava', 'cassava', 1)).toBe(true);
    expect(withinEdits('gingr', 'ginger', 1)).toBe(true);
    expect(withinEdits('gigner', 'ginger', 1)).toBe(true); // swapped
    expect(withinEdits('cassva', 'cassava', 1)).toBe(true);
    expect(withinEdits('casvaa', 'cassava', 1)).toBe(false);
    expect(withinEdits('casvaa', 'cassava', 2)).toBe(true);
    expect(withinEdits('garlic', 'ginger', 2)).toBe(false);
    expect(withinEdits('', 'ab', 2)).toBe(true);
    expect(withinEdits('', 'abc', 2)).toBe(false);
  });

  it('allows 1 edit from 4 to 7 letters, 2 above, none below 4', () => {
    expect([1, 2, 3, 4, 7, 8, 12].map(typoBudget)).toEqual([0, 0, 0, 1, 1, 2, 2]);
  });
});

describe('the dictionary', () => {
  const dictionary = new TypoDictionary(['yam', 'yams', 'cassava', 'ginger', 'garlic', 'ibadan', 'okafor', 'potato', 'potatoes', 'sweet']);

  it('knows a word found whole or by prefix from 3 letters, and then corrects nothing', () => {
    expect(dictionary.matches('yam')).toBe(true);
    expect(dictionary.matches('cass')).toBe(true);
    expect(dictionary.matches('ya')).toBe(false);
    expect(dictionary.matches('yamm')).toBe(false);
    expect(alternativesOf(['yam', 'cass'], dictionary)).toEqual([null, null]);
  });

  it('reads the issue’s typos as the words they miss', () => {
    const [yamm, casava, gingr] = alternativesOf(['yamm', 'casava', 'gingr'], dictionary);
    expect(yamm?.words).toEqual(['yam', 'yams']);
    expect(casava?.words).toEqual(['cassava']);
    expect(gingr?.words).toEqual(['ginger']);
  });

  it('lists the nearest first, and leaves short words alone', () => {
    expect(new TypoDictionary(['potatoes', 'potato', 'potash']).near('potatos')).toEqual(['potato', 'potatoes']);
    expect(alternativesOf(['yan'], dictionary)).toEqual([null]);
  });

  it('reads a tuber name of any interface language as that tuber, even with no product word for it', () => {
    expect(alternativesOf(['galiki'], dictionary)[0]).toEqual({ words: [], tubers: ['garlic'] });
    expect(tubersOfInterfaceWord('tafarnuwa')).toEqual(['garlic']);
    expect(tubersOfInterfaceWord('odunkun').sort()).toEqual(['potato', 'sweet potato']);
  });
});

describe('the interfaces’ tuber names', () => {
  it('every front end’s tuber.* message, in every language, is a word the search reads as that tuber', () => {
    const catalogues = readdirSync(path.join(root, 'frontends'))
      .map((name) => path.join(root, 'frontends', name, 'src', 'i18n'))
      .filter((dir) => existsSync(path.join(dir, 'en.json')))
      .flatMap((dir) => readdirSync(dir).filter((f) => /^(en|pcm|yo|ha|ig)\.json$/.test(f)).map((f) => path.join(dir, f)));
    expect(catalogues.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const file of catalogues) {
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      for (const [id, text] of Object.entries(messages)) {
        const match = /^tubers?\.(yam|cassava|potato|sweet[-_]potato|tumeric|turmeric|garlic|ginger)$/.exec(id);
        if (!match) continue;
        const tuber = match[1]!.replace(/[-_]/, ' ').replace('turmeric', 'tumeric') as keyof typeof INTERFACE_TUBER_WORDS;
        for (const word of wordsOf(text)) {
          if (!tubersOfInterfaceWord(word).includes(tuber)) missing.push(`${path.relative(root, file)} ${id}: "${word}"`);
        }
      }
    }
    expect(missing, 'add these to INTERFACE_TUBER_WORDS (services/catalog/src/domain/typos.ts)').toEqual([]);
  });
});

describe('the dictionary scan (P10 with typos)', () => {
  it('never reads a number as a typo of another number, nor a word with digits as a typo', () => {
    const dictionary = new TypoDictionary(['lot', '1204', '1205', '50kg', 'cassava']);
    expect(dictionary.near('1206')).toEqual([]);
    expect(dictionary.near('50kgs')).toEqual([]);
    expect(dictionary.near('casava')).toEqual(['cassava']);
    expect(dictionary.matches('1204')).toBe(true);
  });

  it('finds exactly what a scan of every word finds (the letter-set bound passes nothing over wrongly)', () => {
    // A seeded generator: the same words every run.
    let seed = 25;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const letters = 'aeiouybdgkmnrstw';
    const word = (length: number) => Array.from({ length }, () => letters[Math.floor(next() * letters.length)]).join('');
    const words = Array.from({ length: 3000 }, () => word(3 + Math.floor(next() * 8)));
    const dictionary = new TypoDictionary(words);
    const unique = [...new Set(words)];
    for (let i = 0; i < 300; i++) {
      // Queries near dictionary words (an edit or two) and far from them.
      const base = unique[Math.floor(next() * unique.length)]!;
      const at = Math.floor(next() * base.length);
      const query = i % 3 === 0 ? word(4 + Math.floor(next() * 6)) : base.slice(0, at) + letters[Math.floor(next() * letters.length)] + base.slice(at + (i % 2));
      const budget = typoBudget(query.length);
      const expected = unique
        .filter((candidate) => candidate !== query && budget > 0 && withinEdits(query, candidate, budget))
        .map((candidate) => ({ candidate, edits: withinEdits(query, candidate, 1) ? 1 : 2 }))
        .sort((x, y) => x.edits - y.edits || (x.candidate < y.candidate ? -1 : 1))
        .slice(0, 8)
        .map((x) => x.candidate);
      expect(dictionary.near(query), query).toEqual(expected);
    }
  });
});
