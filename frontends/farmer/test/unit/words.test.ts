// The farmer remote's words of selling, in English, are exactly @tuber/ui's (the spec's copy), and the
// tuber names follow the language.
import { describe, expect, it } from 'vitest';
import * as ui from '@tuber/ui';
import { setLocale } from '@tuber/shell-contract';
import { loadCatalogue, PRODUCT_STATUSES, SELLING_UNITS, TUBER_SIZES } from '@tuber/ui';
import { catalogue } from '../../src/i18n/catalogue.js';
import * as words from '../../src/i18n/words.js';

describe('words of selling in English', () => {
  it.each(SELLING_UNITS)('%s: labels, plurals and quantities as @tuber/ui has them', (unit) => {
    expect(words.unitLabel(unit)).toBe(ui.unitLabel(unit));
    expect(words.unitPlural(unit)).toBe(ui.unitPlural(unit));
    expect(words.unitPlural(unit, 'short')).toBe(ui.unitPlural(unit, 'short'));
    for (const quantity of [0, 1, 2, 12.5, 1000]) {
      expect(words.quantityText(quantity, unit)).toBe(ui.quantityText(quantity, unit));
      expect(words.quantityText(quantity, unit, 'short')).toBe(ui.quantityText(quantity, unit, 'short'));
    }
    expect(words.priceWithUnit(2000.5, unit)).toBe(ui.priceWithUnit(2000.5, unit));
  });

  it('sizes, statuses, per-kg prices and ages', () => {
    for (const size of TUBER_SIZES) expect(words.unitLabel('tuber', size)).toBe(ui.unitLabel('tuber', size));
    for (const status of PRODUCT_STATUSES) expect(words.statusText(status, '2027-01-12')).toBe(ui.statusText(status, '2027-01-12'));
    expect(words.perKgText(400)).toBe(ui.perKgText(400));
    const now = new Date('2026-11-25T12:00:00Z');
    for (const at of [
      '2026-11-25T11:59:30Z',
      '2026-11-25T11:55:00Z',
      '2026-11-25T09:00:00Z',
      '2026-11-20T12:00:00Z',
      '2026-08-01T00:00:00Z',
      '2023-01-01T00:00:00Z',
    ])
      expect(words.shortAgeText(at, now), at).toBe(ui.shortAge(at, { now, suffix: false }));
  });
});

describe('in another language', () => {
  it('names the tubers with the local names of the search synonyms, and falls back to the type itself', async () => {
    setLocale('yo');
    await loadCatalogue(catalogue, 'yo');
    try {
      expect(words.tuberName('yam')).toBe('iṣu');
      expect(words.tuberName('cassava')).toBe('gbágùdá');
      expect(words.tuberName('sweet potato')).toBe('ọ̀dùnkún');
      expect(words.tuberName('cocoyam')).toBe('cocoyam');
      expect(words.quantityText(12, 'heap')).toBe('òkìtì 12');
      expect(words.priceWithUnit(2000, 'heap')).toBe('₦2,000.00 fún òkìtì kan');
    } finally {
      setLocale('en');
    }
  });
});
