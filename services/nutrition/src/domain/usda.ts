// Embedded nutrition data for the seven tubers, so lookups work offline.
// Values are per 100 g of the raw food, from USDA FoodData Central (SR Legacy release);
// each entry names the food and its NDB number so it can be checked at the source.
import type { Nutrition, TuberType } from '@tuber/contracts';

interface EmbeddedFood {
  food: string;
  ndb: string;
  nutrition: Nutrition;
}

const per100g = (values: Omit<Nutrition, 'serving_weight_grams' | 'serving_qty'>): Nutrition => ({
  serving_weight_grams: 100,
  serving_qty: 1,
  ...values,
});

export const USDA_FOODS: Record<TuberType, EmbeddedFood> = {
  yam: {
    food: 'Yam, raw',
    ndb: '11601',
    nutrition: per100g({
      calories: 118,
      dietary_fiber: 4.1,
      protein: 1.53,
      saturated_fat: 0.037,
      sugars: 0.5,
      potassium: 816,
      sodium: 9,
      total_fat: 0.17,
    }),
  },
  cassava: {
    food: 'Cassava, raw',
    ndb: '11134',
    nutrition: per100g({
      calories: 160,
      dietary_fiber: 1.8,
      protein: 1.36,
      saturated_fat: 0.074,
      sugars: 1.7,
      potassium: 271,
      sodium: 14,
      total_fat: 0.28,
    }),
  },
  potato: {
    food: 'Potatoes, flesh and skin, raw',
    ndb: '11352',
    nutrition: per100g({
      calories: 77,
      dietary_fiber: 2.1,
      protein: 2.05,
      saturated_fat: 0.025,
      sugars: 0.82,
      potassium: 425,
      sodium: 6,
      total_fat: 0.09,
    }),
  },
  'sweet potato': {
    food: 'Sweet potato, raw, unprepared',
    ndb: '11507',
    nutrition: per100g({
      calories: 86,
      dietary_fiber: 3,
      protein: 1.57,
      saturated_fat: 0.018,
      sugars: 4.18,
      potassium: 337,
      sodium: 55,
      total_fat: 0.05,
    }),
  },
  tumeric: {
    food: 'Spices, turmeric, ground',
    ndb: '02043',
    nutrition: per100g({
      calories: 312,
      dietary_fiber: 22.7,
      protein: 9.68,
      saturated_fat: 1.838,
      sugars: 3.21,
      potassium: 2080,
      sodium: 27,
      total_fat: 3.25,
    }),
  },
  garlic: {
    food: 'Garlic, raw',
    ndb: '11215',
    nutrition: per100g({
      calories: 149,
      dietary_fiber: 2.1,
      protein: 6.36,
      saturated_fat: 0.089,
      sugars: 1,
      potassium: 401,
      sodium: 17,
      total_fat: 0.5,
    }),
  },
  ginger: {
    food: 'Ginger root, raw',
    ndb: '11216',
    nutrition: per100g({
      calories: 80,
      dietary_fiber: 2,
      protein: 1.82,
      saturated_fat: 0.203,
      sugars: 1.7,
      potassium: 415,
      sodium: 13,
      total_fat: 0.75,
    }),
  },
};
