// API shapes shared by services and front ends.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The one error shape every service answers with. */
export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
  },
  { $id: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const HealthResponse = Type.Object({ status: Type.Literal('ok') });

export const ReadyResponse = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  checks: Type.Record(Type.String(), Type.Object({ ok: Type.Boolean(), error: Type.Optional(Type.String()) })),
  message: Type.Optional(Type.String()),
});
export type ReadyResponse = Static<typeof ReadyResponse>;

/** The nutrition object of a product (spec §3), per serving. */
export const Nutrition = Type.Object(
  {
    serving_weight_grams: Type.Number({ minimum: 0 }),
    serving_qty: Type.Number({ minimum: 0 }),
    calories: Type.Number({ minimum: 0 }),
    dietary_fiber: Type.Number({ minimum: 0 }),
    protein: Type.Number({ minimum: 0 }),
    saturated_fat: Type.Number({ minimum: 0 }),
    sugars: Type.Number({ minimum: 0 }),
    potassium: Type.Number({ minimum: 0 }),
    sodium: Type.Number({ minimum: 0 }),
    total_fat: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type Nutrition = Static<typeof Nutrition>;

export const NutritionLookup = Type.Object({
  tuber_type: Type.String(),
  nutrition: Nutrition,
  source: Type.Object({ name: Type.String(), reference: Type.String() }),
});
export type NutritionLookup = Static<typeof NutritionLookup>;

/** A keyset-paginated page. `next_cursor` is null on the last page. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) });

export const Product = Type.Object({
  product_id: Type.String(),
  farmer_id: Type.String(),
  product_name: Type.String(),
  description: Type.String(),
  price: Type.Number({ description: 'naira with at most 2 decimals' }),
  kg: Type.Number(),
  tuber_type: Type.String(),
  images: Type.Array(Type.String(), { description: 'public URLs of the photos as uploaded (metadata stripped)' }),
  image_cards: Type.Array(Type.String(), { description: 'card-sized variants, same order as images' }),
  image_thumbs: Type.Array(Type.String(), { description: 'thumbnail variants, same order as images' }),
  location: Type.String(),
  business_name: Type.String(),
  cultural: Type.String(),
  health: Type.Optional(Type.String()),
  nutrition: Type.Optional(Nutrition),
  created_at: Type.String({ format: 'date-time' }),
});
export type Product = Static<typeof Product>;

export const StoredImage = Type.Object({
  image_id: Type.String(),
  file_name: Type.String(),
  url: Type.String(),
  card_url: Type.String(),
  thumb_url: Type.String(),
  content_type: Type.String(),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type StoredImage = Static<typeof StoredImage>;

/** What a farmer sends to post a product (spec §5); farmer, names and location come from the server. */
export const NewProduct = Type.Object(
  {
    product_name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    description: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }),
    price: Type.Number({ minimum: 0, maximum: 100_000_000, description: 'naira, at most 2 decimals' }),
    kg: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'at most 2 decimals' }),
    tuber_type: Type.String({ minLength: 1, maxLength: 40 }),
    image_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 20,
      description: '2 to 5 ids of photos this farmer uploaded',
    }),
    cultural: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }),
    health: Type.Optional(Type.String({ maxLength: 5000 })),
    nutrition: Type.Optional(Nutrition),
  },
  { additionalProperties: false },
);
export type NewProduct = Static<typeof NewProduct>;

export const IMAGES_PER_PRODUCT = { min: 2, max: 5 } as const;
export const IMAGE_COUNT_MESSAGE = 'Please select between 2 to 5 images.';
