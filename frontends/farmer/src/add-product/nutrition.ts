// The nutrition panel's rows: which value of the lookup is shown under which label and unit.
import type { Nutrition } from '@tuber/contracts';

export interface NutritionRow {
  key: keyof Nutrition;
  label: string;
  unit: string;
}

export const NUTRITION_ROWS: readonly NutritionRow[] = [
  { key: 'serving_qty', label: 'Serving quantity', unit: '' },
  { key: 'serving_weight_grams', label: 'Serving weight', unit: 'g' },
  { key: 'calories', label: 'Calories', unit: 'kcal' },
  { key: 'protein', label: 'Protein', unit: 'g' },
  { key: 'dietary_fiber', label: 'Dietary fiber', unit: 'g' },
  { key: 'sugars', label: 'Sugars', unit: 'g' },
  { key: 'total_fat', label: 'Total fat', unit: 'g' },
  { key: 'saturated_fat', label: 'Saturated fat', unit: 'g' },
  { key: 'potassium', label: 'Potassium', unit: 'mg' },
  { key: 'sodium', label: 'Sodium', unit: 'mg' },
];

/** A nutrition value with 2 decimals (spec §9) and its unit, e.g. "118.00 kcal". */
export function nutritionValue(value: number, unit: string): string {
  const text = value.toFixed(2);
  return unit ? `${text} ${unit}` : text;
}
