// The price guide's routes (issue 27, docs/adr/0072): public, for guests too, answered from the series documents the
// read model keeps (one read by id, cached in the process for a few seconds). Nothing here names a farmer or a buyer.
import { Type } from '@sinclair/typebox';
import {
  PriceHistory,
  PriceNow,
  PriceNowAll,
  PriceQuery,
  TUBER_TYPES,
  TuberSlugSchema,
  tuberFromSlug,
  type PriceWeek,
} from '@tuber/contracts';
import { now as clockNow, type ServiceApp } from '@tuber/kit';
import { locationKey, mondayOf, weekId } from './figures.js';
import { seriesId, type PriceStore, type Series } from './model.js';
import type { PriceFollower } from './follow.js';

/** How long a read series is kept in the process (a recompute here drops it at once). */
export const SERIES_CACHE_MS = 5_000;
/** At most this many series (or places without one) are kept: a few hundred KB. */
export const SERIES_CACHE_MAX = 500;
const PUBLIC_CACHE = 'public, max-age=60';

export function priceRoutes(app: ServiceApp, deps: { store: PriceStore; follower?: PriceFollower }) {
  const cache = new Map<string, { at: number; series: Series | null }>();
  deps.follower?.onRecomputed((tuber) => {
    for (const key of cache.keys()) if (key.startsWith(`${tuber}|`)) cache.delete(key);
  });

  async function seriesOf(id: string): Promise<Series | null> {
    const hit = cache.get(id);
    if (hit && Date.now() - hit.at < SERIES_CACHE_MS) return hit.series;
    const series = await deps.store.series.findOne({ _id: id });
    // Bounded: anyone may ask for any place, so the oldest entries go first (a Map keeps insertion order).
    cache.delete(id);
    cache.set(id, { at: Date.now(), series });
    while (cache.size > SERIES_CACHE_MAX) cache.delete(cache.keys().next().value!);
    return series;
  }

  /** The place's series when it has figures of its own, else the city's. */
  async function seriesFor(tuber: string, location: string | undefined): Promise<{ series: Series | null; local: boolean }> {
    const key = location ? locationKey(location) : '';
    if (key) {
      const local = await seriesOf(seriesId(tuber, key));
      if (local) return { series: local, local: true };
    }
    return { series: await seriesOf(seriesId(tuber, '')), local: false };
  }

  function nowOf(tuber: string, series: Series | null, local: boolean, location: string | undefined): PriceNow {
    const current = mondayOf(clockNow().getTime());
    const [thisWeek, lastWeek] = [weekId(current), weekId(current - 7)];
    const find = (week: string): PriceWeek | undefined => series?.weeks.find((w) => w.week === week);
    const shows = (w: PriceWeek | undefined) => Boolean(w && (w.sold || w.asked));
    const [period, week] = shows(find(thisWeek))
      ? (['this_week', find(thisWeek)!] as const)
      : shows(find(lastWeek))
        ? (['last_week', find(lastWeek)!] as const)
        : ([null, undefined] as const);
    return {
      tuber,
      scope: local ? 'location' : 'city',
      ...(local && series ? { location: series.location } : location && local ? { location } : {}),
      period,
      week: week?.week ?? thisWeek,
      sold: week?.sold ?? null,
      asked: week?.asked ?? null,
    };
  }

  const err = Type.Ref('ErrorResponse');
  const tuberParams = Type.Object({ tuber: TuberSlugSchema });

  app.get(
    '/api/catalog/prices/now',
    {
      schema: {
        summary: "Every tuber's price figures this week, city-wide (public)",
        description: 'What accepted requests paid and live listings asked, per kg: quartiles and median, from 5 points by 3 farmers (and 3 buyers) at least; null bands say "not enough sales yet".',
        security: [],
        response: { 200: PriceNowAll, 400: err },
      },
    },
    async (_request, reply) => {
      const items = [];
      for (const tuber of TUBER_TYPES) items.push(nowOf(tuber, await seriesOf(seriesId(tuber, '')), false, undefined));
      reply.header('cache-control', PUBLIC_CACHE);
      return { items };
    },
  );

  app.get(
    '/api/catalog/prices/:tuber/now',
    {
      schema: {
        summary: "One tuber's price figures this week, at a place when it has its own (public)",
        description: "The farmer's price field asks this with the farm's location; `scope` says whether the place's or the city's figures came back.",
        security: [],
        params: tuberParams,
        querystring: PriceQuery,
        response: { 200: PriceNow, 400: err },
      },
    },
    async (request, reply) => {
      const tuber = tuberFromSlug(request.params.tuber)!;
      const { series, local } = await seriesFor(tuber, request.query.location);
      reply.header('cache-control', PUBLIC_CACHE);
      return nowOf(tuber, series, local, request.query.location);
    },
  );

  app.get(
    '/api/catalog/prices/:tuber/history',
    {
      schema: {
        summary: "One tuber's weekly price figures over the last 52 weeks (public)",
        description: 'Oldest week first. A week with too few points alone is merged with the weeks around it (`merged`) or left null. `seasonal` is computed from a full year of figures.',
        security: [],
        params: tuberParams,
        querystring: PriceQuery,
        response: { 200: PriceHistory, 400: err },
      },
    },
    async (request, reply) => {
      const tuber = tuberFromSlug(request.params.tuber)!;
      const { series, local } = await seriesFor(tuber, request.query.location);
      const places = await deps.store.series.find({ tuber, location_key: { $ne: '' } }, { projection: { location: 1 } }).toArray();
      reply.header('cache-control', PUBLIC_CACHE);
      return {
        tuber,
        scope: local ? ('location' as const) : ('city' as const),
        ...(local && series ? { location: series.location } : {}),
        weeks: series?.weeks ?? emptyWeeks(),
        seasonal: series?.seasonal ?? null,
        locations: places.map((p) => p.location).sort((a, b) => a.localeCompare(b)),
      };
    },
  );
}

/** 52 weeks with no figures, for a tuber nothing was computed for yet. */
function emptyWeeks(): PriceWeek[] {
  const current = mondayOf(clockNow().getTime());
  return Array.from({ length: 52 }, (_, i) => {
    const monday = current - (51 - i) * 7;
    return { week: weekId(monday), starts: new Date(monday * 86_400_000).toISOString().slice(0, 10), sold: null, asked: null };
  });
}
