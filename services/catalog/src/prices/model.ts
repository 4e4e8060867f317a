// The price guide's read model (issue 27, docs/adr/0072). Every event it follows is written as its own document,
// keyed by what makes it unique (a product's revision, a request's line, an account's revision): applying an event
// twice, or two consumers writing at once, cannot lose or double anything (FerretDB can lose concurrent updates of
// one document; inserts of distinct ones are safe). The figures are then computed per tuber from those documents
// into one series document per tuber and place, which the routes read by id. A rebuild applies the stream from its
// start to the same code with another collection prefix (rebuild.ts).
import {
  PRICE_HISTORY_WEEKS,
  TUBER_TYPES,
  type PriceWeek,
  type SeasonalHint,
  type TuberType,
} from '@tuber/contracts';
import type { mongo } from 'mongoose';
import {
  locationKey,
  mondayDate,
  mondayOf,
  seasonalHint,
  weekId,
  weekStartMs,
  weeklyBands,
  type PricePoint,
} from './figures.js';

export interface ListingState {
  _id: string;
  product_id: string;
  farmer_id: string;
  tuber: string;
  unit: string;
  unit_weight_kg: number;
  per_kg: number;
  available: boolean;
  revision: number;
  at: Date;
}
export interface ListingMark {
  _id: string;
  product_id: string;
  kind: 'hidden' | 'shown' | 'deleted';
  at: Date;
}
export interface Sale {
  _id: string;
  request_id: string;
  product_id: string;
  tuber: string;
  per_kg: number;
  farmer_id: string;
  buyer_id: string;
  location_key: string;
  at: Date;
}
export interface Cancel {
  _id: string;
  at: Date;
}
export interface Standing {
  _id: string;
  user_id: string;
  suspended: boolean;
  revision: number;
}
export interface FarmerPlace {
  _id: string;
  farmer_id: string;
  location: string;
  location_key: string;
  revision: number;
}
/** One tuber's figures at one place ('' for the whole city): what the routes answer from. */
export interface Series {
  _id: string;
  tuber: string;
  location_key: string;
  location: string;
  /** The week the series ends with (the current one when it was computed). */
  week: string;
  computed_at: Date;
  weeks: PriceWeek[];
  seasonal: SeasonalHint | null;
}

export const seriesId = (tuber: string, key: string) => `${tuber}|${key}`;

/** Naira per kg of a price in kobo per unit, to the kobo. */
export const perKgOf = (priceKobo: number, unitWeightKg: number) => Math.round(priceKobo / unitWeightKg) / 100;

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;
/** Inserts, or finds the document already there (the event was applied before). */
async function insertOnce<T extends { _id: string }>(collection: mongo.Collection<T>, doc: T): Promise<boolean> {
  try {
    await collection.insertOne(doc as never);
    return true;
  } catch (err) {
    if (isDuplicate(err)) return false;
    throw err;
  }
}

/** The facts of a product the model has not seen an event with them for (one from before issue 27). */
export type LegacyProduct = (productId: string) => Promise<{ farmer_id: string; tuber: string; unit: string; unit_weight_kg: number } | null>;

export class PriceStore {
  readonly states: mongo.Collection<ListingState>;
  readonly marks: mongo.Collection<ListingMark>;
  readonly sales: mongo.Collection<Sale>;
  readonly cancels: mongo.Collection<Cancel>;
  readonly standings: mongo.Collection<Standing>;
  readonly places: mongo.Collection<FarmerPlace>;
  readonly series: mongo.Collection<Series>;

  constructor(
    readonly db: mongo.Db,
    readonly prefix = 'prices_',
  ) {
    this.states = db.collection(`${prefix}listing_states`);
    this.marks = db.collection(`${prefix}listing_marks`);
    this.sales = db.collection(`${prefix}sales`);
    this.cancels = db.collection(`${prefix}cancels`);
    this.standings = db.collection(`${prefix}standings`);
    this.places = db.collection(`${prefix}places`);
    this.series = db.collection(`${prefix}series`);
  }

  async init(): Promise<void> {
    await Promise.all([
      this.states.createIndex({ tuber: 1 }),
      this.states.createIndex({ product_id: 1 }),
      this.marks.createIndex({ product_id: 1 }),
      this.sales.createIndex({ tuber: 1 }),
      this.series.createIndex({ tuber: 1 }),
    ]);
  }

  async drop(): Promise<void> {
    for (const c of [this.states, this.marks, this.sales, this.cancels, this.standings, this.places, this.series]) {
      await c.drop().catch(() => undefined);
    }
  }

  // ------------------------------------------------------------------ applying events (each returns the tubers it touched)

  /** A product posted or edited: its price per kg from then on, and whether buyers could have it. */
  async listingState(event: {
    product_id: string;
    farmer_id: string;
    revision?: number | undefined;
    price_kobo?: number | undefined;
    unit?: string | undefined;
    status?: string | undefined;
    tuber_type?: string | undefined;
    unit_weight_kg?: number | undefined;
    at: string;
  }): Promise<string[]> {
    // Events from before issue 27 lack the tuber and weight: such a listing counts from its next edit.
    if (!event.tuber_type || !event.unit_weight_kg || event.price_kobo === undefined || !event.unit) return [];
    const revision = event.revision ?? 1;
    const inserted = await insertOnce(this.states, {
      _id: `${event.product_id}:r${revision}`,
      product_id: event.product_id,
      farmer_id: event.farmer_id,
      tuber: event.tuber_type,
      unit: event.unit,
      unit_weight_kg: event.unit_weight_kg,
      per_kg: perKgOf(event.price_kobo, event.unit_weight_kg),
      available: (event.status ?? 'available') === 'available',
      revision,
      at: new Date(event.at),
    });
    return inserted ? [event.tuber_type] : [];
  }

  /** A listing hidden or shown by a moderator, or deleted. */
  async listingMark(productId: string, kind: ListingMark['kind'], at: string, revision?: number): Promise<string[]> {
    const id = kind === 'deleted' ? `${productId}:deleted` : `${productId}:m${revision ?? 0}`;
    if (!(await insertOnce(this.marks, { _id: id, product_id: productId, kind, at: new Date(at) }))) return [];
    return this.tubersOfProduct(productId);
  }

  async tubersOfProduct(productId: string): Promise<string[]> {
    const states = await this.states.find({ product_id: productId }, { projection: { tuber: 1 } }).toArray();
    return [...new Set(states.map((s) => s.tuber))];
  }

  /**
   * A farmer accepted a request: each line is a sale at its price per kg, with the tuber and weight the listing had
   * when it was accepted (`legacy` for a product no event of the model described).
   */
  async accepted(
    event: { request_id: string; farmer_id: string; buyer_id: string; at: string; lines: { product_id: string; unit: string; price_kobo: number }[] },
    legacy: LegacyProduct,
  ): Promise<string[]> {
    const at = new Date(event.at);
    const place = await this.placeOf(event.farmer_id);
    const touched = new Set<string>();
    for (const line of event.lines) {
      const state = await this.states.find({ product_id: line.product_id, at: { $lte: at } }).sort({ at: -1, revision: -1 }).limit(1).next();
      const facts = state ?? (await legacy(line.product_id));
      if (!facts) continue;
      const weight = line.unit === 'kg' ? 1 : facts.unit === line.unit ? facts.unit_weight_kg : null;
      if (!weight) continue;
      const fresh = await insertOnce(this.sales, {
        _id: `${event.request_id}:${line.product_id}`,
        request_id: event.request_id,
        product_id: line.product_id,
        tuber: facts.tuber,
        per_kg: perKgOf(line.price_kobo, weight),
        farmer_id: event.farmer_id,
        buyer_id: event.buyer_id,
        location_key: place?.location_key ?? '',
        at,
      });
      if (fresh) touched.add(facts.tuber);
    }
    return [...touched];
  }

  /** An accepted request cancelled: its sales no longer count (a cancel before its acceptance arrives counts too). */
  async cancelled(event: { request_id: string; was_accepted: boolean; at: string }): Promise<string[]> {
    if (!event.was_accepted) return [];
    if (!(await insertOnce(this.cancels, { _id: event.request_id, at: new Date(event.at) }))) return [];
    const sales = await this.sales.find({ request_id: event.request_id }, { projection: { tuber: 1 } }).toArray();
    return [...new Set(sales.map((s) => s.tuber))];
  }

  /** An account suspended or restored: while suspended, nothing it sold, bought or listed counts. */
  async standing(event: { user_id: string; suspended: boolean; revision: number }): Promise<string[]> {
    const fresh = await insertOnce(this.standings, {
      _id: `${event.user_id}:${event.revision}`,
      user_id: event.user_id,
      suspended: event.suspended,
      revision: event.revision,
    });
    return fresh ? [...TUBER_TYPES] : [];
  }

  /** A farmer's place, as their profile says. */
  async place(event: { farmer_id: string; location: string; revision: number }): Promise<string[]> {
    const fresh = await insertOnce(this.places, {
      _id: `${event.farmer_id}:${event.revision}`,
      farmer_id: event.farmer_id,
      location: event.location.trim().replace(/\s+/g, ' '),
      location_key: locationKey(event.location),
      revision: event.revision,
    });
    return fresh ? [...TUBER_TYPES] : [];
  }

  async placeOf(farmerId: string): Promise<FarmerPlace | null> {
    return this.places.find({ farmer_id: farmerId }).sort({ revision: -1 }).limit(1).next();
  }

  // ------------------------------------------------------------------ figures

  /** Computes one tuber's series (the city's, and each place's with figures of its own) as of `nowMs`, and stores them. */
  async recompute(tuber: string, nowMs: number): Promise<Series[]> {
    const series = await this.computeSeries(tuber, nowMs);
    for (const doc of series) await this.series.replaceOne({ _id: doc._id }, doc, { upsert: true });
    await this.series.deleteMany({ tuber, _id: { $nin: series.map((s) => s._id) } });
    return series;
  }

  async computeSeries(tuber: string, nowMs: number): Promise<Series[]> {
    const [states, sales, cancels, standings, places] = await Promise.all([
      this.states.find({ tuber }).toArray(),
      this.sales.find({ tuber }).toArray(),
      this.cancels.find({}).toArray(),
      this.standings.find({}).toArray(),
      this.places.find({}).toArray(),
    ]);
    const productIds = [...new Set(states.map((s) => s.product_id))];
    const marks = productIds.length ? await this.marks.find({ product_id: { $in: productIds } }).toArray() : [];
    const suspended = new Set(latestBy(standings, (s) => s.user_id).filter((s) => s.suspended).map((s) => s.user_id));
    const placeOf = new Map(latestBy(places, (p) => p.farmer_id).map((p) => [p.farmer_id, p]));
    const labels = new Map<string, string>();
    for (const p of placeOf.values()) labels.set(p.location_key, p.location);
    const cancelled = new Set(cancels.map((c) => c._id));

    const current = mondayOf(nowMs);
    const mondays = Array.from({ length: PRICE_HISTORY_WEEKS }, (_, i) => current - (PRICE_HISTORY_WEEKS - 1 - i) * 7);
    const indexOf = (ms: number) => {
      const i = (mondayOf(ms) - mondays[0]!) / 7;
      return i >= 0 && i < mondays.length ? i : -1;
    };
    const empty = () => mondays.map((): PricePoint[] => []);
    const sold = new Map<string, PricePoint[][]>([['', empty()]]);
    const asked = new Map<string, PricePoint[][]>([['', empty()]]);
    const firstSale = new Map<string, number>();
    const add = (table: Map<string, PricePoint[][]>, key: string, i: number, point: PricePoint) => {
      for (const k of key ? ['', key] : ['']) {
        if (!table.has(k)) table.set(k, empty());
        table.get(k)![i]!.push(point);
      }
    };

    for (const sale of sales) {
      if (cancelled.has(sale.request_id) || suspended.has(sale.buyer_id) || suspended.has(sale.farmer_id)) continue;
      const ms = sale.at.getTime();
      for (const k of sale.location_key ? ['', sale.location_key] : ['']) firstSale.set(k, Math.min(firstSale.get(k) ?? ms, ms));
      const i = indexOf(ms);
      if (i >= 0) add(sold, sale.location_key, i, { perKg: sale.per_kg, farmer: sale.farmer_id, buyer: sale.buyer_id });
    }

    // Listings live in a week: available, not hidden, not deleted at some moment of it; the last such price counts.
    const byProduct = groupBy(states, (s) => s.product_id);
    const marksOf = groupBy(marks, (m) => m.product_id);
    for (const [productId, productStates] of byProduct) {
      const farmer = productStates[0]!.farmer_id;
      if (suspended.has(farmer)) continue;
      const timeline = timelineOf(productStates, marksOf.get(productId) ?? []);
      const key = placeOf.get(farmer)?.location_key ?? '';
      mondays.forEach((monday, i) => {
        const perKg = lastLivePrice(timeline, weekStartMs(monday), weekStartMs(monday + 7));
        if (perKg !== null) add(asked, key, i, { perKg, farmer });
      });
    }

    const result: Series[] = [];
    const computedAt = new Date(nowMs);
    for (const key of new Set([...sold.keys(), ...asked.keys()])) {
      const soldBands = weeklyBands(sold.get(key) ?? empty(), 'sold');
      const askedBands = weeklyBands(asked.get(key) ?? empty(), 'asked');
      const weeks: PriceWeek[] = mondays.map((monday, i) => ({
        week: weekId(monday),
        starts: mondayDate(monday),
        sold: soldBands[i] ?? null,
        asked: askedBands[i] ?? null,
      }));
      // A place is given only when it has a figure of its own to show.
      if (key && !weeks.some((w) => w.sold || w.asked)) continue;
      result.push({
        _id: seriesId(tuber, key),
        tuber,
        location_key: key,
        location: key ? (labels.get(key) ?? key) : '',
        week: weekId(current),
        computed_at: computedAt,
        weeks,
        seasonal: seasonalHint(weeks, firstSale.get(key) ?? null, nowMs),
      });
    }
    return result;
  }
}

/** The newest revision of each subject. */
function latestBy<T extends { revision: number }>(docs: T[], subject: (doc: T) => string): T[] {
  const latest = new Map<string, T>();
  for (const doc of docs) {
    const seen = latest.get(subject(doc));
    if (!seen || seen.revision < doc.revision) latest.set(subject(doc), doc);
  }
  return [...latest.values()];
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

interface Moment {
  at: number;
  perKg: number;
  live: boolean;
}

/** The listing's price and liveness from each change on, in time order (the product's revision orders a tie). */
function timelineOf(states: ListingState[], marks: ListingMark[]): Moment[] {
  type Change = { at: number; order: number; apply: (s: { perKg: number; available: boolean; hidden: boolean; deleted: boolean }) => void };
  const changes: Change[] = [
    ...states.map((s) => ({
      at: s.at.getTime(),
      order: s.revision,
      apply: (x: { perKg: number; available: boolean }) => {
        x.perKg = s.per_kg;
        x.available = s.available;
      },
    })),
    ...marks.map((m) => ({
      at: m.at.getTime(),
      order: Number.MAX_SAFE_INTEGER,
      apply: (x: { hidden: boolean; deleted: boolean }) => {
        if (m.kind === 'deleted') x.deleted = true;
        else x.hidden = m.kind === 'hidden';
      },
    })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const state = { perKg: 0, available: false, hidden: false, deleted: false };
  return changes.map((change) => {
    change.apply(state);
    return { at: change.at, perKg: state.perKg, live: state.available && !state.hidden && !state.deleted };
  });
}

/** The price of the last moment in [from, to) that the listing was live (live at `from` counts), or null. */
function lastLivePrice(timeline: Moment[], from: number, to: number): number | null {
  let found: number | null = null;
  for (const moment of timeline) {
    if (moment.at >= to) break;
    if (moment.at < from) found = moment.live ? moment.perKg : null;
    else if (moment.live) found = moment.perKg;
  }
  return found;
}

/** Which tubers' figures a set of touched ones means (every one, deduplicated). */
export const tubersIn = (touched: Iterable<string>): TuberType[] => TUBER_TYPES.filter((t) => new Set(touched).has(t));
