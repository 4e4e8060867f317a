import { describe, expect, it } from 'vitest';
import { nextIndex, previousIndex, wrapIndex } from '../../src/detail/carousel.js';
import { nutritionBars, twoDecimals } from '../../src/detail/nutrition.js';
import { growsLine, mailtoHref, phoneText, telHref } from '../../src/contact/contactText.js';

describe('carousel', () => {
  it('next goes forward and wraps from the last image to the first', () => {
    expect(nextIndex(0, 3)).toBe(1);
    expect(nextIndex(1, 3)).toBe(2);
    expect(nextIndex(2, 3)).toBe(0);
  });

  it('previous goes back and wraps from the first image to the last', () => {
    expect(previousIndex(2, 3)).toBe(1);
    expect(previousIndex(0, 3)).toBe(2);
  });

  it('stays on the only image, and on 0 without images', () => {
    expect(nextIndex(0, 1)).toBe(0);
    expect(previousIndex(0, 1)).toBe(0);
    expect(nextIndex(0, 0)).toBe(0);
    expect(previousIndex(0, 0)).toBe(0);
  });

  it('wraps steps larger than the ring', () => {
    expect(wrapIndex(1, 7, 5)).toBe(3);
    expect(wrapIndex(1, -7, 5)).toBe(4);
  });
});

describe('nutrition bars', () => {
  const yam = {
    serving_weight_grams: 136,
    serving_qty: 1,
    calories: 158.1,
    dietary_fiber: 5.3,
    protein: 2.04,
    saturated_fat: 0.05,
    sugars: 0.68,
    potassium: 1224,
    sodium: 12.24,
    total_fat: 0.23,
  };

  it("shows the seven nutrients in the spec's order with their units, each to 2 decimals", () => {
    expect(nutritionBars(yam)!.map((bar) => `${bar.label}: ${bar.value} ${bar.unit}`)).toEqual([
      'Calories: 158.10 kcal',
      'Sodium: 12.24 mg',
      'Sugars: 0.68 g',
      'Protein: 2.04 g',
      'Potassium: 1224.00 mg',
      'Dietary Fiber: 5.30 g',
      'Total Fat: 0.23 g',
    ]);
  });

  it('sizes bars as a share of the daily value, capped at 100%', () => {
    const bars = nutritionBars({ ...yam, calories: 500, sodium: 9999 })!;
    expect(bars.find((bar) => bar.key === 'calories')!.percent).toBe(25);
    expect(bars.find((bar) => bar.key === 'sodium')!.percent).toBe(100);
    expect(bars.find((bar) => bar.key === 'potassium')!.percent).toBe(26);
  });

  it('shows a missing nutrient as 0.00, and no bars at all without nutrition data', () => {
    expect(nutritionBars({ calories: 100 })!.find((bar) => bar.key === 'protein')).toMatchObject({ value: '0.00', percent: 0 });
    expect(nutritionBars(null)).toBeNull();
    expect(nutritionBars(undefined)).toBeNull();
    expect(nutritionBars({})).toBeNull();
  });

  it.each([
    [0, '0.00'],
    [5, '5.00'],
    [1.005, '1.01'],
    [2.675, '2.68'],
    [0.1 + 0.2, '0.30'],
    [1224, '1224.00'],
    [1e-7, '0.00'],
    [-1.5, '-1.50'],
  ])('formats %s as "%s"', (value, text) => {
    expect(twoDecimals(value)).toBe(text);
  });
});

describe('contact farmer text', () => {
  it('says what the farmer grows: "{business} grows {tuber list}."', () => {
    expect(growsLine('Ada Farms', ['yam'])).toBe('Ada Farms grows yam.');
    expect(growsLine('Ada Farms', ['yam', 'cassava'])).toBe('Ada Farms grows yam and cassava.');
    expect(growsLine('Ada Farms', ['yam', 'cassava', 'sweet potato'])).toMatch(/^Ada Farms grows yam, cassava,? and sweet potato\.$/);
    expect(growsLine('Ada Farms', [])).toBeNull();
  });

  it('makes tel: and mailto: links', () => {
    expect(telHref('+234 803 000 0000')).toBe('tel:+2348030000000');
    expect(telHref('0803-000-0000')).toBe('tel:08030000000');
    // Issue 12: the profile service keeps E.164 digits without the plus.
    expect(telHref('2348035550123')).toBe('tel:+2348035550123');
    expect(phoneText('2348035550123')).toBe('+234 803 555 0123');
    expect(phoneText('+2348030000000')).toBe('+2348030000000');
    expect(phoneText('0803 555 0123')).toBe('0803 555 0123');
    expect(mailtoHref(' ada@farm.ng ')).toBe('mailto:ada@farm.ng');
  });
});
