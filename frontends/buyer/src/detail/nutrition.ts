// The "Nutrition Value" bars of the product detail (spec §2): seven nutrients, each value to 2 decimals.
// A bar's length is the share of a day's reference intake (FDA daily values, 2,000 kcal diet), so
// kilocalories, milligrams and grams can sit side by side without one unit dwarfing the others.
import type { Nutrition } from '../catalog/types.js';

export type NutrientKey = 'calories' | 'sodium' | 'sugars' | 'protein' | 'potassium' | 'dietary_fiber' | 'total_fat';

interface Nutrient {
  key: NutrientKey;
  label: string;
  unit: 'kcal' | 'mg' | 'g';
  dailyValue: number;
}

export const NUTRIENTS: readonly Nutrient[] = [
  { key: 'calories', label: 'Calories', unit: 'kcal', dailyValue: 2000 },
  { key: 'sodium', label: 'Sodium', unit: 'mg', dailyValue: 2300 },
  { key: 'sugars', label: 'Sugars', unit: 'g', dailyValue: 50 },
  { key: 'protein', label: 'Protein', unit: 'g', dailyValue: 50 },
  { key: 'potassium', label: 'Potassium', unit: 'mg', dailyValue: 4700 },
  { key: 'dietary_fiber', label: 'Dietary Fiber', unit: 'g', dailyValue: 28 },
  { key: 'total_fat', label: 'Total Fat', unit: 'g', dailyValue: 78 },
];

export interface NutritionBar {
  key: NutrientKey;
  label: string;
  unit: string;
  /** The value with exactly 2 decimals, e.g. "118.00". */
  value: string;
  /** Bar length in percent of the daily value, 0–100 (a value above the daily value fills the bar). */
  percent: number;
}

/** Exactly 2 decimals, rounding half away from zero on the decimal the person sees (1.005 → "1.01"). */
export function twoDecimals(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a number: ${value}`);
  const abs = Math.abs(value);
  // Shift the decimal point in the text, not by multiplying (1.005 * 100 is 100.49999…).
  const text = String(abs);
  const hundredths = Math.round(text.includes('e') ? abs * 100 : Number(`${text}e2`));
  const sign = value < 0 && hundredths !== 0 ? '-' : '';
  return `${sign}${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

/** The bars to draw, in the spec's order; a nutrient the data lacks shows as 0.00. Null without any data. */
export function nutritionBars(nutrition: Nutrition | null | undefined): NutritionBar[] | null {
  if (!nutrition) return null;
  const known = NUTRIENTS.filter(({ key }) => typeof nutrition[key] === 'number' && Number.isFinite(nutrition[key]));
  if (known.length === 0) return null;
  return NUTRIENTS.map(({ key, label, unit, dailyValue }) => {
    const raw = nutrition[key];
    const amount = typeof raw === 'number' && Number.isFinite(raw) ? Math.max(0, raw) : 0;
    const percent = Math.min(100, Math.round((amount / dailyValue) * 1000) / 10);
    return { key, label, unit, value: twoDecimals(amount), percent };
  });
}
