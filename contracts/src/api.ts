// API shapes shared by services and front ends.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TuberTypeSchema } from './tubers.js';

import { problemProperties } from './problems.js';

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

/**
 * A page of the feed (GET /api/catalog/products). When words of the search matched no product's words and
 * were read as words near them or as a tuber they name (issue 25), `searched_as` is the search as it was
 * read ("yam" for "yamm"); an empty first page may offer `did_you_mean`, a search that would find something.
 */
export const FeedPage = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    searched_as: Type.Optional(Type.String({ description: 'the search as read, when words of it were corrected' })),
    did_you_mean: Type.Optional(Type.String({ description: 'a search to offer when this one found nothing' })),
  });

/** How a product is sold (issue 11, ADR 0030): the unit its price and stock quantity are given in. */
export const SELLING_UNITS = ['kg', 'tuber', 'heap', 'bag_50kg', 'lot_100'] as const;
export type SellingUnit = (typeof SELLING_UNITS)[number];
export const SellingUnitSchema = Type.Union(SELLING_UNITS.map((u) => Type.Literal(u)));
/** The words a person reads for each unit, after the price ("₦2,000 per heap"). */
export const SELLING_UNIT_LABELS: Record<SellingUnit, string> = {
  kg: 'per kg',
  tuber: 'per tuber',
  heap: 'per heap',
  bag_50kg: 'per 50 kg bag',
  lot_100: 'per lot of 100 tubers',
};
/** Sizes of a tuber sold one by one. */
export const TUBER_SIZES = ['small', 'medium', 'large'] as const;
export type TuberSize = (typeof TUBER_SIZES)[number];
export const TuberSizeSchema = Type.Union(TUBER_SIZES.map((u) => Type.Literal(u)));
/** Whether a buyer can have it now: available, sold out, or coming with the next harvest (from a date). */
export const PRODUCT_STATUSES = ['available', 'sold_out', 'next_harvest'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export const ProductStatusSchema = Type.Union(PRODUCT_STATUSES.map((u) => Type.Literal(u)));
/** A calendar day, YYYY-MM-DD. */
export const CalendarDay = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', format: 'date', maxLength: 10 });

export const Product = Type.Object({
  product_id: Type.String(),
  farmer_id: Type.String(),
  product_name: Type.String(),
  description: Type.String(),
  price: Type.Number({ description: 'naira per selling unit, at most 2 decimals' }),
  unit: SellingUnitSchema,
  tuber_size: Type.Optional(TuberSizeSchema),
  unit_weight_kg: Type.Number({ description: 'average weight of one unit in kg (1 for kg)' }),
  price_per_kg: Type.Number({ description: 'naira per kg, computed: price / unit_weight_kg, 2 decimals' }),
  quantity: Type.Number({ description: 'stock available, in the selling unit' }),
  kg: Type.Number({ description: 'the stock in kg (quantity × unit_weight_kg), for clients that know only kg' }),
  status: ProductStatusSchema,
  next_harvest: Type.Optional(CalendarDay),
  tuber_type: Type.String(),
  images: Type.Array(Type.String(), { description: 'public URLs of the photos as uploaded (metadata stripped)' }),
  image_cards: Type.Array(Type.String(), { description: 'card-sized variants, same order as images' }),
  image_thumbs: Type.Array(Type.String(), { description: 'thumbnail variants, same order as images' }),
  image_ids: Type.Optional(
    Type.Array(Type.String(), {
      description: 'ids of the photos, same order as images; an edit keeps a photo by sending its id back in ProductChange.image_ids',
    }),
  ),
  location: Type.String(),
  business_name: Type.String(),
  /** The farmer's rating (issue 26): the count, and the mean from 3 reviews; absent before any review. */
  farmer_rating: Type.Optional(
    Type.Object({ count: Type.Integer({ minimum: 0 }), mean: Type.Optional(Type.Number({ minimum: 1, maximum: 5 })) }),
  ),
  /**
   * Moderation (issue 26): only in the farmer's own list, on a listing the buyers no longer see: hidden by a
   * moderator (with the reason), or the account suspended.
   */
  withheld: Type.Optional(
    Type.Object({ hidden: Type.Boolean(), suspended: Type.Boolean(), reason: Type.Optional(Type.String()) }),
  ),
  cultural: Type.String(),
  health: Type.Optional(Type.String()),
  nutrition: Type.Optional(Nutrition),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.Optional(Type.String({ format: 'date-time' })),
  /** 1 when posted, +1 on every edit. */
  revision: Type.Integer({ minimum: 1 }),
});
export type Product = Static<typeof Product>;

export const StoredImage = Type.Object({
  image_id: Type.String(),
  file_name: Type.String({
    maxLength: 255,
    description: '"<timestamp>_<original name>" with spaces as underscores and other characters removed; at most 255 bytes (a longer name loses the end of its stem, keeps its extension)',
  }),
  url: Type.String(),
  card_url: Type.String(),
  thumb_url: Type.String(),
  content_type: Type.String(),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type StoredImage = Static<typeof StoredImage>;

const productName = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
const longText = Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' });
const priceNaira = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'naira per selling unit, at most 2 decimals' });
const stockQuantity = Type.Number({ minimum: 0, maximum: 1_000_000, description: 'stock in the selling unit, at most 2 decimals' });
const unitWeight = Type.Number({
  minimum: 0.01,
  maximum: 5_000,
  description: 'average kg per unit, at most 2 decimals; required unless the unit is kg',
});
const imageIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 20,
  description: '2 to 5 ids of photos this farmer uploaded, in the order to show them',
});

/** What a farmer sends to post a product (spec §5); farmer, names and location come from the server. */
export const NewProduct = Type.Object(
  {
    product_name: productName,
    description: longText,
    price: priceNaira,
    unit: Type.Optional(SellingUnitSchema),
    tuber_size: Type.Optional(TuberSizeSchema),
    unit_weight_kg: Type.Optional(unitWeight),
    quantity: Type.Optional(stockQuantity),
    kg: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1_000_000, description: 'older clients: the stock in kg, for a product sold per kg' }),
    ),
    status: Type.Optional(ProductStatusSchema),
    next_harvest: Type.Optional(CalendarDay),
    tuber_type: Type.String({ minLength: 1, maxLength: 40 }),
    image_ids: imageIds,
    cultural: longText,
    health: Type.Optional(Type.String({ maxLength: 5000 })),
    nutrition: Type.Optional(Nutrition),
  },
  { additionalProperties: false },
);
export type NewProduct = Static<typeof NewProduct>;

/**
 * The optional header of a product post that makes it safe to send again (issue 24, ADR 0059): the
 * IETF draft's Idempotency-Key, a String (quoted) or, as many clients send it, the bare token. The
 * catalog keeps it per farmer for a day; a repeat gets the first answer, never a second product.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const ProductPostHeaders = Type.Object({
  [IDEMPOTENCY_KEY_HEADER]: Type.Optional(
    Type.String({
      pattern: '^("[A-Za-z0-9._:-]{1,128}"|[A-Za-z0-9._:-]{1,128})$',
      description:
        'Optional. A key the client makes once per product it posts (e.g. "8e03978e40d543e8bc936894a57f9324") and sends again with every retry of that post. ' +
        "The same key from the same farmer within 24 hours answers the first post's 201 and product again, creating nothing; " +
        'with another body it is refused (422, code IDEMPOTENCY_KEY_REUSED). Letters, digits and . _ : - (1 to 128), optionally in double quotes.',
    }),
  ),
});

/** The stable code of a product post whose Idempotency-Key this farmer already used for another body (422). */
export const IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED';

/** A 422 from POST /api/catalog/products: the error shape, with `code` IDEMPOTENCY_KEY_REUSED. */
export const ProductPostKeyReused = Type.Object({ ...problemProperties, code: Type.Literal(IDEMPOTENCY_KEY_REUSED) });
export type ProductPostKeyReused = Static<typeof ProductPostKeyReused>;

/** What a farmer may change of a posted product: any of these, the rules of posting applying to the result. */
export const ProductChange = Type.Object(
  {
    product_name: Type.Optional(productName),
    description: Type.Optional(longText),
    price: Type.Optional(priceNaira),
    unit: Type.Optional(SellingUnitSchema),
    tuber_size: Type.Optional(Type.Union([TuberSizeSchema, Type.Null()])),
    unit_weight_kg: Type.Optional(unitWeight),
    quantity: Type.Optional(stockQuantity),
    status: Type.Optional(ProductStatusSchema),
    next_harvest: Type.Optional(Type.Union([CalendarDay, Type.Null()])),
    image_ids: Type.Optional(imageIds),
    cultural: Type.Optional(longText),
    health: Type.Optional(Type.String({ maxLength: 5000 })),
    /** The revision the farmer edited; a newer one on the server answers 409 instead of overwriting it. */
    revision: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProductChange = Static<typeof ProductChange>;

/** Feed sort orders: newest first (default), ₦ per kg low to high, price per unit low to high. */
export const FEED_SORTS = ['newest', 'price_per_kg', 'price'] as const;
export type FeedSort = (typeof FEED_SORTS)[number];

/** The feed's search, filters and sort (GET /api/catalog/products); all optional, combined with AND. */
export const FeedQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'words, matched by prefix in name, description, tuber type (and its local names), business name and location',
    }),
  ),
  tuber: Type.Optional(Type.Array(TuberTypeSchema, { maxItems: 7, description: 'any of these tuber types' })),
  min_price: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000_000, description: '₦ per kg, at least' })),
  max_price: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000_000, description: '₦ per kg, at most' })),
  location: Type.Optional(Type.String({ maxLength: 100, description: 'words of the location, matched by prefix' })),
  available: Type.Optional(Type.Boolean({ description: 'true: only products a buyer can have now' })),
  sort: Type.Optional(
    Type.Union(
      FEED_SORTS.map((s) => Type.Literal(s)),
      { default: 'newest' },
    ),
  ),
});
export type FeedQuery = Static<typeof FeedQuery>;

export const IMAGES_PER_PRODUCT = { min: 2, max: 5 } as const;
export const IMAGE_COUNT_MESSAGE = 'Please select between 2 to 5 images.';
