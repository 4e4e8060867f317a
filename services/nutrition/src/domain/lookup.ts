import { TUBER_TYPES, type NutritionLookup, type TuberType } from '@tuber/contracts';
import { USDA_FOODS } from './usda.js';

/** Accepts the spec's names case-insensitively, with URL-style separators ("sweet-potato"). */
export function parseTuberType(raw: string): TuberType | undefined {
  const normalised = raw
    .trim()
    .toLowerCase()
    .replace(/[-_+]+/g, ' ')
    .replace(/\s+/g, ' ');
  return (TUBER_TYPES as readonly string[]).includes(normalised) ? (normalised as TuberType) : undefined;
}

export function embeddedLookup(tuberType: TuberType): NutritionLookup {
  const entry = USDA_FOODS[tuberType];
  return {
    tuber_type: tuberType,
    nutrition: entry.nutrition,
    source: { name: 'USDA FoodData Central (SR Legacy)', reference: `${entry.food}, NDB ${entry.ndb}, per 100 g` },
  };
}
