// The price guide (issue 27, docs/adr/0072): what a kilo of each tuber sold for and was asked for, week by week,
// from the market's own events. Figures are aggregates only: a band is given from PRICE_SHOWN_FROM points made by
// at least PRICE_PARTIES_FROM farmers (and, for sales, as many buyers), so no farmer, buyer or single sale can be
// read out of it. The catalog service keeps the read model and answers these routes, for guests too.
import { Type, type Static } from '@sinclair/typebox';
import { TUBER_TYPES, type TuberType } from './tubers.js';

/** No figure from fewer points than this ("Not enough sales yet"). */
export const PRICE_SHOWN_FROM = 5;
/** Nor from fewer distinct farmers (and, for sales, distinct buyers) than this. */
export const PRICE_PARTIES_FROM = 3;
/** How many weeks the public price page shows. */
export const PRICE_HISTORY_WEEKS = 52;
/** A week's figure counts as a seasonal change from this fall or rise of a month's median on the month before. */
export const SEASONAL_CHANGE_FROM = 0.1;

/** Tubers in URLs: /prices/sweet-potato. */
export const tuberSlug = (tuber: TuberType): string => tuber.replace(/ /g, '-');
export const tuberFromSlug = (slug: string): TuberType | undefined => TUBER_TYPES.find((tuber) => tuberSlug(tuber) === slug);
export const TuberSlugSchema = Type.Union(
  TUBER_TYPES.map((tuber) => Type.Literal(tuberSlug(tuber))),
  { description: 'the tuber as in URLs: yam, cassava, potato, sweet-potato, tumeric, garlic, ginger' },
);

/** A week in Lagos time, ISO numbering: 2026-W48. */
export const IsoWeek = Type.String({ pattern: '^[0-9]{4}-W[0-9]{2}$', description: 'ISO week in Lagos time, e.g. 2026-W48' });

/** Naira per kg: the lower quartile, median and upper quartile of `count` points, rounded to whole naira. */
export const PriceBand = Type.Object({
  count: Type.Integer({ minimum: PRICE_SHOWN_FROM, description: 'how many points (sold lines, or live listings) the band is from' }),
  p25: Type.Integer({ minimum: 0, description: 'lower quartile, naira per kg' }),
  p50: Type.Integer({ minimum: 0, description: 'median, naira per kg' }),
  p75: Type.Integer({ minimum: 0, description: 'upper quartile, naira per kg' }),
  /** Set when the week alone had too few points and its neighbours' were taken with it (the week before and after). */
  merged: Type.Optional(Type.Boolean()),
});
export type PriceBand = Static<typeof PriceBand>;

/** A band, or null: "Not enough sales yet". */
const bandOrNull = Type.Union([PriceBand, Type.Null()]);

/**
 * GET /api/catalog/prices/{tuber}/now: this week's figures for one tuber, at a location when it has enough points of
 * its own there (`scope` says which was given). `period` says whether the figures are this week's, or last week's
 * while this one has too few yet; null with both bands null when neither has.
 */
export const PriceNow = Type.Object({
  tuber: Type.String(),
  scope: Type.Union([Type.Literal('location'), Type.Literal('city')]),
  /** The location asked for, when `scope` is location. */
  location: Type.Optional(Type.String()),
  period: Type.Union([Type.Literal('this_week'), Type.Literal('last_week'), Type.Null()]),
  week: IsoWeek,
  /** What accepted requests paid. */
  sold: bandOrNull,
  /** What listings live that week asked. */
  asked: bandOrNull,
});
export type PriceNow = Static<typeof PriceNow>;

/** GET /api/catalog/prices/now: every tuber's city-wide figures at once (the buyer's markers on cards). */
export const PriceNowAll = Type.Object({ items: Type.Array(PriceNow) });
export type PriceNowAll = Static<typeof PriceNowAll>;

export const PriceWeek = Type.Object({
  week: IsoWeek,
  /** The week's Monday, YYYY-MM-DD. */
  starts: Type.String({ format: 'date' }),
  sold: bandOrNull,
  asked: bandOrNull,
});
export type PriceWeek = Static<typeof PriceWeek>;

/** Computed from a full year of figures, never written by hand: "prices usually fall in August". */
export const SeasonalHint = Type.Object({
  direction: Type.Union([Type.Literal('fall'), Type.Literal('rise')]),
  /** 1 = January. */
  month: Type.Integer({ minimum: 1, maximum: 12 }),
  /** The month's median against the month before's, as a fraction (0.25 = a quarter). */
  change: Type.Number(),
});
export type SeasonalHint = Static<typeof SeasonalHint>;

/** GET /api/catalog/prices/{tuber}/history: the last PRICE_HISTORY_WEEKS weeks, oldest first, this week last. */
export const PriceHistory = Type.Object({
  tuber: Type.String(),
  scope: Type.Union([Type.Literal('location'), Type.Literal('city')]),
  location: Type.Optional(Type.String()),
  weeks: Type.Array(PriceWeek),
  seasonal: Type.Union([SeasonalHint, Type.Null()]),
  /** Locations with figures of their own for this tuber (the page's choice), sorted. */
  locations: Type.Array(Type.String()),
});
export type PriceHistory = Static<typeof PriceHistory>;

export const PriceQuery = Type.Object(
  { location: Type.Optional(Type.String({ maxLength: 100, description: "a farm's location; the city's figures when it has too few of its own" })) },
  { additionalProperties: false },
);
export type PriceQuery = Static<typeof PriceQuery>;

/** Where a price stands against a band: under its lower quartile, between the quartiles, over the upper. */
export type PricePosition = 'below' | 'around' | 'above';
export function pricePosition(nairaPerKg: number, band: Pick<PriceBand, 'p25' | 'p75'>): PricePosition {
  if (nairaPerKg < band.p25) return 'below';
  if (nairaPerKg > band.p75) return 'above';
  return 'around';
}

/** "Far outside" for the farmer's gentle note: under 70 % of the lower quartile or over 130 % of the upper. */
export function farOutside(nairaPerKg: number, band: Pick<PriceBand, 'p25' | 'p75'>): 'low' | 'high' | null {
  if (nairaPerKg < band.p25 * 0.7) return 'low';
  if (nairaPerKg > band.p75 * 1.3) return 'high';
  return null;
}
