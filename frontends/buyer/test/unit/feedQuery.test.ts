// The feed's search, filters and sort in the address (issue 11): shareable, canonical, and what the API gets.
import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  feedApiPath,
  isNarrowed,
  NO_FILTERS,
  noResultsText,
  parseFeedSearch,
  toFeedSearch,
  type FeedFilters,
} from '../../src/feed/feedQuery.js';

const filters = (change: Partial<FeedFilters>): FeedFilters => ({ ...NO_FILTERS, ...change });

describe('the address of a search', () => {
  it('is the plain feed with nothing set: no query at all', () => {
    expect(toFeedSearch(NO_FILTERS)).toBe('');
    expect(parseFeedSearch('')).toEqual(NO_FILTERS);
  });

  it('carries search words, several tuber types, a ₦/kg range, location, available=true and the sort', () => {
    const search = toFeedSearch(
      filters({
        q: 'isu',
        tubers: ['yam', 'cassava'],
        minPrice: 100,
        maxPrice: 2500.5,
        location: 'Lagos',
        available: true,
        sort: 'price_per_kg',
      }),
    );
    expect(search).toBe('?q=isu&tuber=yam&tuber=cassava&min_price=100&max_price=2500.5&location=Lagos&available=true&sort=price_per_kg');
  });

  it('reads back exactly what it wrote (a shared link shows the same search)', () => {
    const shared = filters({ q: 'white yam', tubers: ['sweet potato', 'ginger'], maxPrice: 800, location: 'Ibadan, Oyo', sort: 'price' });
    expect(parseFeedSearch(toFeedSearch(shared))).toEqual(shared);
  });

  it("writes the tuber types in the spec's order, once each, whatever order they were picked in", () => {
    expect(toFeedSearch(filters({ tubers: ['ginger', 'yam', 'ginger'] }))).toBe('?tuber=yam&tuber=ginger');
  });

  it('leaves the default sort (newest) out of the address', () => {
    expect(toFeedSearch(filters({ q: 'cass', sort: 'newest' }))).toBe('?q=cass');
  });

  it('ignores what it does not understand in a hand-edited address: unknown tubers, bad prices, unknown sort, available=yes', () => {
    expect(parseFeedSearch('?tuber=banana&tuber=yam&min_price=abc&max_price=-5&sort=cheapest&available=yes&page=2')).toEqual(
      filters({ tubers: ['yam'] }),
    );
  });

  it('swaps a range given the wrong way round, so min ≤ max', () => {
    expect(parseFeedSearch('?min_price=900&max_price=100')).toEqual(filters({ minPrice: 100, maxPrice: 900 }));
  });

  it("trims and squeezes the words and cuts them to the contract's 100 characters", () => {
    const parsed = parseFeedSearch(`?q=${encodeURIComponent('  white    yam  ')}&location=${'a'.repeat(150)}`);
    expect(parsed.q).toBe('white yam');
    expect(parsed.location).toHaveLength(100);
  });

  it('keeps prices to 2 decimals and refuses more than ₦100,000,000', () => {
    expect(parseFeedSearch('?min_price=12.345&max_price=100000001')).toEqual(filters({ minPrice: 12.35 }));
  });

  it('reads spaces written as + or %20 alike', () => {
    expect(parseFeedSearch('?tuber=sweet+potato&q=white%20yam')).toEqual(filters({ q: 'white yam', tubers: ['sweet potato'] }));
  });
});

describe('the API call of a feed page', () => {
  it('asks for 12 products with the search, and the cursor for later pages', () => {
    const search = filters({ q: 'isu', tubers: ['yam'], available: true, sort: 'price' });
    expect(feedApiPath(search, null)).toBe('/catalog/products?limit=12&q=isu&tuber=yam&available=true&sort=price');
    expect(feedApiPath(search, 'abc')).toBe('/catalog/products?limit=12&q=isu&tuber=yam&available=true&sort=price&cursor=abc');
  });

  it('is the plain feed call without a search', () => {
    expect(feedApiPath(NO_FILTERS, null)).toBe('/catalog/products?limit=12');
  });
});

describe('what the page says about a search', () => {
  it('says what was searched when nothing matches', () => {
    expect(noResultsText(filters({ q: 'isu', location: 'Lagos' }))).toBe('No products match “isu” in Lagos');
    expect(noResultsText(filters({ tubers: ['yam', 'cassava', 'ginger'], available: true }))).toBe(
      'No available yam, cassava or ginger products',
    );
    expect(noResultsText(filters({ minPrice: 100, maxPrice: 500 }))).toBe('No products at ₦100.00 to ₦500.00 per kg');
    expect(noResultsText(filters({ maxPrice: 500 }))).toBe('No products at ₦500.00 per kg or less');
  });

  it("counts the filters set (not the words, not the sort) for the phone's Filters button", () => {
    expect(activeFilterCount(filters({ q: 'isu', sort: 'price' }))).toBe(0);
    expect(activeFilterCount(filters({ tubers: ['yam', 'cassava'], minPrice: 1, maxPrice: 2, location: 'Ibadan', available: true }))).toBe(
      4,
    );
  });

  it('knows when the feed is narrowed (the empty text then offers "Clear filters")', () => {
    expect(isNarrowed(filters({ sort: 'price' }))).toBe(false);
    expect(isNarrowed(filters({ q: 'isu' }))).toBe(true);
    expect(isNarrowed(filters({ available: true }))).toBe(true);
  });
});
