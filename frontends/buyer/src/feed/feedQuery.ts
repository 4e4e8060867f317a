// The feed's search, filters and sort as they live in the address bar (shareable, Back/Forward work) and as
// the catalog reads them (FeedQuery, GET /api/catalog/products): q, tuber (repeated), min_price, max_price
// (₦ per kg), location, available=true, sort. One canonical form, so equal searches have equal addresses.
import { nairaToKobo } from '@tuber/ui';
import { tr, type T } from '../i18n/t.js';
import { listWords, nairaText, tuberName } from '../i18n/words.js';
import { FEED_PAGE_SIZE, type FeedSort, type TuberType } from '../catalog/types.js';

/** The seven tubers in the spec's order (contracts' TUBER_TYPES; the record makes the compiler check the list). */
const TUBER_LIST = { yam: 0, cassava: 1, potato: 2, 'sweet potato': 3, tumeric: 4, garlic: 5, ginger: 6 } as const satisfies Record<
  TuberType,
  number
>;
export const TUBER_TYPES = Object.keys(TUBER_LIST) as TuberType[];

/** The English labels (the page shows `filters.sort.<sort>` from the catalogue). */
export const FEED_SORT_LABELS = {
  newest: 'Newest',
  price_per_kg: '₦ per kg: low to high',
  price: 'Price: low to high',
} as const satisfies Record<FeedSort, string>;
export const FEED_SORTS = Object.keys(FEED_SORT_LABELS) as FeedSort[];

/** The contract's limits on text (FeedQuery: at most 100 characters) and price (₦100,000,000). */
export const TEXT_MAX = 100;
export const PRICE_MAX = 100_000_000;

export interface FeedFilters {
  q: string;
  tubers: TuberType[];
  /** ₦ per kg. */
  minPrice: number | null;
  maxPrice: number | null;
  location: string;
  available: boolean;
  sort: FeedSort;
}

export const NO_FILTERS: FeedFilters = {
  q: '',
  tubers: [],
  minPrice: null,
  maxPrice: null,
  location: '',
  available: false,
  sort: 'newest',
};

const isTuber = (value: string): value is TuberType => Object.hasOwn(TUBER_LIST, value);
const isSort = (value: string | null): value is FeedSort => value !== null && Object.hasOwn(FEED_SORT_LABELS, value);

/** Spaces squeezed, cut to the contract's length. */
export const cleanText = (value: string | null | undefined): string => (value ?? '').replace(/\s+/g, ' ').trim().slice(0, TEXT_MAX).trim();

/** A price a person typed or an address carried: naira with at most 2 decimals, 0..100,000,000, or null. */
export function cleanPrice(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().replace(/,/g, '');
  if (text === '' || !/^\d+(\.\d+)?$/.test(text)) return null;
  const naira = Number(text);
  if (!Number.isFinite(naira) || naira > PRICE_MAX) return null;
  return nairaToKobo(naira) / 100;
}

/** Reads the address's query (e.g. `location.search`); anything it does not understand is left out. */
export function parseFeedSearch(search: string): FeedFilters {
  const params = new URLSearchParams(search);
  const tubers = new Set(params.getAll('tuber').filter(isTuber));
  let minPrice = cleanPrice(params.get('min_price'));
  let maxPrice = cleanPrice(params.get('max_price'));
  if (minPrice !== null && maxPrice !== null && minPrice > maxPrice) [minPrice, maxPrice] = [maxPrice, minPrice];
  const sort = params.get('sort');
  return {
    q: cleanText(params.get('q')),
    tubers: TUBER_TYPES.filter((tuber) => tubers.has(tuber)),
    minPrice,
    maxPrice,
    location: cleanText(params.get('location')),
    available: params.get('available') === 'true',
    sort: isSort(sort) ? sort : 'newest',
  };
}

function filterParams(filters: FeedFilters): URLSearchParams {
  const clean = parseFeedSearch(`?${toParams(filters)}`); // one canonical form (order, limits, min ≤ max)
  return toParams(clean);
}

function toParams(filters: FeedFilters): URLSearchParams {
  const params = new URLSearchParams();
  const q = cleanText(filters.q);
  if (q) params.set('q', q);
  for (const tuber of filters.tubers) params.append('tuber', tuber);
  if (filters.minPrice !== null) params.set('min_price', String(filters.minPrice));
  if (filters.maxPrice !== null) params.set('max_price', String(filters.maxPrice));
  const location = cleanText(filters.location);
  if (location) params.set('location', location);
  if (filters.available) params.set('available', 'true');
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  return params;
}

/** The address's query for these filters: "" for the plain feed, else "?q=isu&tuber=yam&sort=price". */
export function toFeedSearch(filters: FeedFilters): string {
  const text = filterParams(filters).toString();
  return text ? `?${text}` : '';
}

/** The API path of one page of this feed (the API client adds /api). */
export function feedApiPath(filters: FeedFilters, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(FEED_PAGE_SIZE) });
  for (const [name, value] of filterParams(filters)) params.append(name, value);
  if (cursor) params.set('cursor', cursor);
  return `/catalog/products?${params}`;
}

/** True when anything narrows the feed (the sort alone does not). */
export const isNarrowed = (filters: FeedFilters): boolean =>
  filters.q !== '' ||
  filters.tubers.length > 0 ||
  filters.minPrice !== null ||
  filters.maxPrice !== null ||
  filters.location !== '' ||
  filters.available;

/** How many filters (not the search words, not the sort) are set: the count on the phone's Filters button. */
export const activeFilterCount = (filters: FeedFilters): number =>
  (filters.tubers.length > 0 ? 1 : 0) +
  (filters.minPrice !== null || filters.maxPrice !== null ? 1 : 0) +
  (filters.location !== '' ? 1 : 0) +
  (filters.available ? 1 : 0);

/** What was searched, for the empty feed: "No products match “isu” in Lagos" (in the current language). */
export function noResultsText(filters: FeedFilters, t: T = tr): string {
  const available = filters.available ? 'yes' : 'no';
  const subject =
    filters.tubers.length > 0
      ? t('feed.no-results.tuber-products', {
          available,
          tubers: listWords(
            filters.tubers.map((tuber) => tuberName(tuber, t)),
            'disjunction',
          ),
        })
      : t('feed.no-results.products', { available });
  const { minPrice, maxPrice } = filters;
  let price = '';
  if (minPrice !== null && maxPrice !== null) price = t('feed.no-results.range', { min: nairaText(minPrice), max: nairaText(maxPrice) });
  else if (minPrice !== null) price = t('feed.no-results.min', { min: nairaText(minPrice) });
  else if (maxPrice !== null) price = t('feed.no-results.max', { max: nairaText(maxPrice) });
  return t('feed.no-results', {
    subject,
    match: filters.q ? t('feed.no-results.match', { q: filters.q }) : '',
    place: filters.location ? t('feed.no-results.place', { location: filters.location }) : '',
    price,
  });
}
