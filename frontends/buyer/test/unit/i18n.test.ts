// The buyer's words in another language (issue 13): units and plurals through ICU, tuber names from the search
// synonyms, money always "₦2,000.00"; and the English copy unchanged.
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import { setLocale } from '@tuber/shell-contract';
import { loadCatalogue, shortAge } from '@tuber/ui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../src/i18n/catalogue.js';
import en from '../../src/i18n/en.json';
import { ageWords, dayText, productPriceWords, quantityWords, stockWords, tuberName } from '../../src/i18n/words.js';
import { noResultsText, NO_FILTERS } from '../../src/feed/feedQuery.js';

describe('English', () => {
  it('is the copy the pages had', () => {
    expect(en['phone.invalid']).toBe(PHONE_E164_PROBLEM);
    expect(productPriceWords({ price: 2000, unit: 'heap' })).toBe('₦2,000.00 per heap');
    expect(productPriceWords({ price: 2000, unit: 'tuber', tuber_size: 'large' })).toBe('₦2,000.00 per large tuber');
    expect(quantityWords(1, 'heap')).toBe('1 heap');
    expect(quantityWords(2, 'bag_50kg')).toBe('2 bags of 50 kg');
    expect(quantityWords(12.5, 'kg')).toBe('12.5 kg');
    expect(stockWords({ status: 'available', quantity: 12, unit: 'heap', kg: 60 }).text).toBe('Available: 12 heaps');
    expect(stockWords({ status: 'next_harvest', next_harvest: '2027-01-12', kg: 0 }).text).toBe('Next harvest from 12 Jan 2027');
    expect(dayText('2027-01-12')).toBe('12 Jan 2027');
  });

  it('says ages as shortAge does', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    for (const minutes of [0.5, 5, 60, 180, 60 * 24, 60 * 24 * 3, 60 * 24 * 40, 60 * 24 * 400, 60 * 24 * 900]) {
      const at = new Date(now.getTime() - minutes * 60_000);
      expect(ageWords(at, { now })).toBe(shortAge(at, { now }));
      expect(ageWords(at, { now, suffix: false })).toBe(shortAge(at, { now, suffix: false }));
    }
  });
});

describe('Yoruba', () => {
  beforeAll(async () => {
    setLocale('yo');
    await loadCatalogue(catalogue, 'yo');
  });
  afterAll(() => setLocale('en'));

  it('names tubers by their local names and counts units in Yoruba, money in the Nigerian style', () => {
    expect(tuberName('yam')).toBe('iṣu');
    expect(tuberName('cassava')).toBe('gbágùdá');
    expect(productPriceWords({ price: 2000, unit: 'heap' })).toBe('₦2,000.00 fún òkìtì kan');
    expect(stockWords({ status: 'available', quantity: 12, unit: 'heap', kg: 60 }).text).toBe('Ó wà: òkìtì 12');
    expect(stockWords({ status: 'sold_out', kg: 0 }).text).toBe('Ó ti tán');
    expect(noResultsText({ ...NO_FILTERS, tubers: ['yam'], location: 'Ibadan' })).toBe('Kò sí iṣu ní Ibadan');
  });
});
