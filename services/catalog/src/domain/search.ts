// The feed's search, filters and sort (ADR 0029): what a query asks for, normalised; the order's
// score (sold-out products after all others in every sort); the page cursor of a searched feed
// (tied to its query by a hash); and the database path, taken while the Redis read model
// (read-model.ts) is away or being rebuilt, and what a MongoDB serves from its indexes.
import { createHash } from 'node:crypto';
import type { FeedQuery, FeedSort, TuberType } from '@tuber/contracts';
import type { ProductDocument, ProductModel } from './product.js';
import { MIN_PREFIX_LENGTH, normaliseQuery } from './search-terms.js';
import type { WordAlternatives } from './typos.js';

/** Sold-out products score this much lower in the newest-first feed (created_at is in ms, about 1.8e12 now). */
export const SOLD_OUT_FEED_SHIFT = 1e13;
/** Sold-out products score this much higher in the price orders (prices are at most 1e10 kobo). */
export const SOLD_OUT_PRICE_SHIFT = 1e12;

/** A query as the read model and the database path take it. */
export interface SearchPlan {
  sort: FeedSort;
  /** Words of `q`: each must match a word of the product (whole, or by prefix from 3 characters). */
  words: string[];
  /** Any of these tuber types. */
  tubers: TuberType[];
  /** Words of `location`: each must match a word of the product's location. */
  locationWords: string[];
  /** ₦ per kg range, in kobo (inclusive). */
  minPerKgKobo?: number;
  maxPerKgKobo?: number;
  available: boolean;
  /** Identifies the query in its cursors. */
  hash: string;
  /**
   * Per word of `words`: what it is read as if it matches no product's word itself (typos.ts), or null.
   * Set by the route from the dictionary; not part of the hash (a page's cursor stays the query's).
   */
  alternatives?: (WordAlternatives | null)[];
}

export function planSearch(query: FeedQuery): SearchPlan {
  const words = normaliseQuery(query.q ?? '');
  const tubers = [...new Set(query.tuber ?? [])].sort();
  const locationWords = normaliseQuery(query.location ?? '');
  const minPerKgKobo = query.min_price === undefined ? undefined : Math.ceil(query.min_price * 100 - 1e-6);
  const maxPerKgKobo = query.max_price === undefined ? undefined : Math.floor(query.max_price * 100 + 1e-6);
  const available = query.available === true;
  const sort = query.sort ?? 'newest';
  const hash = createHash('sha256')
    .update(JSON.stringify([sort, words, tubers, locationWords, minPerKgKobo ?? null, maxPerKgKobo ?? null, available]))
    .digest('base64url')
    .slice(0, 12);
  return { sort, words, tubers, locationWords, minPerKgKobo, maxPerKgKobo, available, hash };
}

/** Whether the plan is the plain feed (newest first, nothing filtered): served by the feed's own path. */
export function isPlainFeed(plan: SearchPlan): boolean {
  return (
    plan.sort === 'newest' &&
    plan.words.length === 0 &&
    plan.tubers.length === 0 &&
    plan.locationWords.length === 0 &&
    plan.minPerKgKobo === undefined &&
    plan.maxPerKgKobo === undefined &&
    !plan.available
  );
}

/** Whether nothing can match (a range upside down). */
export function isEmptyPlan(plan: SearchPlan): boolean {
  return plan.minPerKgKobo !== undefined && plan.maxPerKgKobo !== undefined && plan.minPerKgKobo > plan.maxPerKgKobo;
}

export interface OrderFields {
  status?: string | null;
  created_at: Date;
  price_per_kg_kobo?: number | null;
  price_kobo: number;
}

const isSoldOut = (p: { status?: string | null }) => p.status === 'sold_out';

/** The product's score in an order: newest is descending, the prices ascending; sold-out last in each. */
export function scoreOf(p: OrderFields, sort: FeedSort): number {
  if (sort === 'newest') return p.created_at.getTime() - (isSoldOut(p) ? SOLD_OUT_FEED_SHIFT : 0);
  const value = sort === 'price' ? p.price_kobo : (p.price_per_kg_kobo ?? p.price_kobo);
  return value + (isSoldOut(p) ? SOLD_OUT_PRICE_SHIFT : 0);
}

export const descending = (sort: FeedSort) => sort === 'newest';

/** Position in a searched feed: the last item's score and id. */
export interface SearchPosition {
  score: number;
  productId: string;
}

const VERSION = 's1';

export function encodeSearchCursor(plan: SearchPlan, position: SearchPosition): string {
  return Buffer.from(`${VERSION}|${plan.hash}|${position.score}|${position.productId}`, 'utf8').toString('base64url');
}

/** Undefined for anything that is not a cursor of this very query. */
export function decodeSearchCursor(plan: SearchPlan, cursor: string): SearchPosition | undefined {
  const [version, hash, scoreText, productId, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (version !== VERSION || hash !== plan.hash || !scoreText || !productId || rest.length > 0) return undefined;
  const score = Number(scoreText);
  if (!Number.isSafeInteger(score) || String(score) !== scoreText) return undefined;
  return { score, productId };
}

/** Whether product a comes before b in the plan's order (score, then product id the same way). */
export function searchComesBefore(sort: FeedSort, a: SearchPosition, b: SearchPosition): boolean {
  if (a.score !== b.score) return descending(sort) ? a.score > b.score : a.score < b.score;
  return descending(sort) ? a.productId > b.productId : a.productId < b.productId;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A MongoDB condition for one query word on an array of words: whole word, or prefix from 3 characters. */
function wordCondition(word: string): unknown {
  return word.length >= MIN_PREFIX_LENGTH ? { $regex: `^${escapeRegex(word)}` } : word;
}

/** The MongoDB filter of a plan (without order or position). */
export function searchFilter(plan: SearchPlan): Record<string, unknown> {
  const and: Record<string, unknown>[] = [{ deleting: { $ne: true } }, { withheld: { $ne: true } }];
  plan.words.forEach((word, i) => {
    const alternative = plan.alternatives?.[i];
    if (!alternative) and.push({ search_terms: wordCondition(word) });
    else {
      // Read as its alternatives (the route found it matches no word): words near it, tubers it names.
      const any: Record<string, unknown>[] = [];
      if (alternative.words.length) any.push({ search_terms: { $in: alternative.words } });
      if (alternative.tubers.length) any.push({ tuber_type: { $in: alternative.tubers } });
      and.push(any.length === 1 ? any[0]! : { $or: any.length ? any : [{ search_terms: wordCondition(word) }] });
    }
  });
  for (const word of plan.locationWords) and.push({ location_terms: wordCondition(word) });
  if (plan.tubers.length === 1) and.push({ tuber_type: plan.tubers[0] });
  else if (plan.tubers.length > 1) and.push({ tuber_type: { $in: plan.tubers } });
  if (plan.minPerKgKobo !== undefined || plan.maxPerKgKobo !== undefined) {
    and.push({
      price_per_kg_kobo: {
        ...(plan.minPerKgKobo !== undefined ? { $gte: plan.minPerKgKobo } : {}),
        ...(plan.maxPerKgKobo !== undefined ? { $lte: plan.maxPerKgKobo } : {}),
      },
    });
  }
  if (plan.available) and.push({ status: 'available' });
  return and.length === 1 ? and[0]! : { $and: and };
}

const SORT_FIELD = { newest: 'created_at', price_per_kg: 'price_per_kg_kobo', price: 'price_kobo' } as const;

/**
 * A searched page from the database, in two phases: products that are not sold out, then (unless
 * "available now") the sold-out ones, each in the order's field and product id, from the position on.
 */
export async function readSearchPage(
  Product: ProductModel,
  plan: SearchPlan,
  limit: number,
  position?: SearchPosition,
): Promise<{ items: ProductDocument[]; more: boolean }> {
  const field = SORT_FIELD[plan.sort];
  const dir = descending(plan.sort) ? -1 : 1;
  const base = searchFilter(plan);
  const positionSoldOut = position
    ? descending(plan.sort)
      ? position.score < Date.UTC(1980, 0, 1) // shifted far into the past
      : position.score >= SOLD_OUT_PRICE_SHIFT
    : false;
  const phases: boolean[] = plan.available ? [false] : [false, true];
  const items: ProductDocument[] = [];
  for (const soldOut of phases) {
    if (positionSoldOut && !soldOut) continue;
    const conditions: Record<string, unknown>[] = [base, soldOut ? { status: 'sold_out' } : { status: { $ne: 'sold_out' } }];
    if (position && positionSoldOut === soldOut) {
      const raw = descending(plan.sort)
        ? position.score + (soldOut ? SOLD_OUT_FEED_SHIFT : 0)
        : position.score - (soldOut ? SOLD_OUT_PRICE_SHIFT : 0);
      const value = plan.sort === 'newest' ? new Date(raw) : raw;
      const beyond = dir === -1 ? '$lt' : '$gt';
      conditions.push({ $or: [{ [field]: { [beyond]: value } }, { [field]: value, product_id: { [beyond]: position.productId } }] });
    }
    const want = limit + 1 - items.length;
    const found = await Product.find({ $and: conditions })
      .sort({ [field]: dir, product_id: dir })
      .limit(want)
      .lean();
    items.push(...(found as ProductDocument[]));
    if (items.length > limit) break;
  }
  return { items: items.slice(0, limit), more: items.length > limit };
}
