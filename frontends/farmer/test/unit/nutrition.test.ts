import { describe, expect, it } from 'vitest';
import { NUTRITION_ROWS, nutritionValue } from '../../src/add-product/nutrition.js';

describe('nutrition panel', () => {
  it('shows every field of the nutrition object once', () => {
    expect(NUTRITION_ROWS.map((row) => row.key).sort()).toEqual(
      [
        'calories',
        'dietary_fiber',
        'potassium',
        'protein',
        'saturated_fat',
        'serving_qty',
        'serving_weight_grams',
        'sodium',
        'sugars',
        'total_fat',
      ].sort(),
    );
  });
  it('shows values with 2 decimals and their unit', () => {
    expect(nutritionValue(118, 'kcal')).toBe('118.00 kcal');
    expect(nutritionValue(0.037, 'g')).toBe('0.04 g');
    expect(nutritionValue(1, '')).toBe('1.00');
  });
});
