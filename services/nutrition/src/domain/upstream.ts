// The optional third-party provider (a "natural language nutrients" API): used only when its
// keys are configured on the server, never from a browser. Its first food fills the product's
// nutrition object; anything unexpected means "no answer" and the embedded data is used instead.
import type { Nutrition } from '@tuber/contracts';

export interface UpstreamOptions {
  url: string;
  appId: string;
  appKey: string;
  timeoutMs: number;
}

interface UpstreamFood {
  serving_weight_grams?: number;
  serving_qty?: number;
  nf_calories?: number;
  nf_dietary_fiber?: number;
  nf_protein?: number;
  nf_saturated_fat?: number;
  nf_sugars?: number;
  nf_potassium?: number;
  nf_sodium?: number;
  nf_total_fat?: number;
  food_name?: string;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

export function nutritionFromFood(food: UpstreamFood): Nutrition | undefined {
  if (typeof food.nf_calories !== 'number' || typeof food.serving_weight_grams !== 'number') return undefined;
  return {
    serving_weight_grams: num(food.serving_weight_grams),
    serving_qty: num(food.serving_qty),
    calories: num(food.nf_calories),
    dietary_fiber: num(food.nf_dietary_fiber),
    protein: num(food.nf_protein),
    saturated_fat: num(food.nf_saturated_fat),
    sugars: num(food.nf_sugars),
    potassium: num(food.nf_potassium),
    sodium: num(food.nf_sodium),
    total_fat: num(food.nf_total_fat),
  };
}

export async function upstreamLookup(
  options: UpstreamOptions,
  tuberType: string,
): Promise<{ nutrition: Nutrition; food: string } | undefined> {
  const response = await fetch(options.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': options.appId, 'x-app-key': options.appKey },
    body: JSON.stringify({ query: tuberType, use_raw_foods: true }),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`nutrition provider answered ${response.status}`);
  const body = (await response.json()) as { foods?: UpstreamFood[] };
  const first = body.foods?.[0];
  const nutrition = first ? nutritionFromFood(first) : undefined;
  return nutrition ? { nutrition, food: first?.food_name ?? tuberType } : undefined;
}
