// Rebuilding the price guide from the event stream (issue 27, docs/adr/0072): every event the guide follows, read
// from the stream's start in stream order and applied to fresh collections (prefix prices_rebuild_) by the same code
// the live consumers run, then each tuber computed. `compareSeries` says where the rebuilt figures differ from the
// live ones; `replaceLive` puts the rebuilt read model in the live one's place.
import type { EventBus } from '@tuber/kit';
import { TUBER_TYPES } from '@tuber/contracts';
import type { mongo } from 'mongoose';
import { PRICE_EVENTS, applyPriceEvent } from './apply.js';
import { PriceStore, type LegacyProduct, type Series } from './model.js';

export const REBUILD_PREFIX = 'prices_rebuild_';

export interface RebuildResult {
  store: PriceStore;
  events: number;
  invalid: number;
  series: number;
  ms: number;
}

export async function rebuildPrices(bus: EventBus, db: mongo.Db, legacy: LegacyProduct, nowMs: number, prefix = REBUILD_PREFIX): Promise<RebuildResult> {
  const started = Date.now();
  const store = new PriceStore(db, prefix);
  await store.drop();
  await store.init();
  const all: { seq: number; subject: string; payload: unknown }[] = [];
  let invalid = 0;
  for (const { event, replay } of PRICE_EVENTS) {
    const read = await bus.replay(event, replay);
    invalid += read.invalid;
    for (const e of read.events) all.push({ seq: e.seq, subject: event.subject, payload: e.payload });
  }
  all.sort((a, b) => a.seq - b.seq);
  for (const e of all) await applyPriceEvent(store, e.subject, e.payload, legacy);
  let series = 0;
  for (const tuber of TUBER_TYPES) series += (await store.recompute(tuber, nowMs)).length;
  return { store, events: all.length, invalid, series, ms: Date.now() - started };
}

/** The series ids whose figures differ between two stores (computed at the same moment), and how many were compared. */
export async function compareSeries(a: PriceStore, b: PriceStore, nowMs: number): Promise<{ compared: number; differing: string[] }> {
  const differing: string[] = [];
  let compared = 0;
  for (const tuber of TUBER_TYPES) {
    const [left, right] = await Promise.all([a.computeSeries(tuber, nowMs), b.computeSeries(tuber, nowMs)]);
    const byId = new Map(right.map((s) => [s._id, figuresOf(s)]));
    for (const s of left) {
      compared += 1;
      if (byId.get(s._id) !== figuresOf(s)) differing.push(s._id);
      byId.delete(s._id);
    }
    differing.push(...byId.keys());
  }
  return { compared, differing };
}

const figuresOf = (s: Series) => JSON.stringify({ weeks: s.weeks, seasonal: s.seasonal, location: s.location });

/** Copies the rebuilt collections over the live ones (run while the catalog's price consumers are idle). */
export async function replaceLive(rebuilt: PriceStore, live: PriceStore): Promise<void> {
  const names = ['states', 'marks', 'sales', 'cancels', 'standings', 'places', 'series'] as const;
  for (const name of names) {
    const from = rebuilt.db.collection(rebuilt[name].collectionName);
    const to = live.db.collection(live[name].collectionName);
    const docs = await from.find({}).toArray();
    await to.deleteMany({});
    for (let i = 0; i < docs.length; i += 500) await to.insertMany(docs.slice(i, i + 500));
  }
  await rebuilt.drop();
}
