import { describe, expect, it } from 'vitest';
import { TUBER_TYPES, tuberSlug, type PriceBand, type PriceWeek } from '@tuber/contracts';
import { formatFor } from '@tuber/ui';
import {
  PLOT_HEIGHT,
  TUBER_SLUGS,
  bandPath,
  bandRuns,
  hasFigures,
  hasMergedWeeks,
  historyApiPath,
  isTuberSlug,
  labelledWeeks,
  locationFromSearch,
  medianPath,
  niceStep,
  pricePagePath,
  priceScale,
  searchForLocation,
  yOf,
} from '../../src/prices/priceView.js';
import { perKgRange, rangeText } from '../../src/prices/priceText.js';
import { TUBERS } from '../../src/domain/rules.js';

const band = (p25: number, p50: number, p75: number, extra: Partial<PriceBand> = {}): PriceBand => ({ count: 5, p25, p50, p75, ...extra });
const week = (n: number, sold: PriceBand | null = null, asked: PriceBand | null = null): PriceWeek => ({
  week: `2026-W${String(n).padStart(2, '0')}`,
  starts: `2026-01-${String(n).padStart(2, '0')}`,
  sold,
  asked,
});

describe('the price pages’ addresses', () => {
  it('has a page for each of the seven tubers, spaces as "-" (/prices/sweet-potato)', () => {
    expect([...TUBER_SLUGS]).toEqual(TUBER_TYPES.map(tuberSlug));
    expect([...TUBER_SLUGS]).toEqual(TUBERS.map((tuber) => tuber.replace(/ /g, '-')));
    expect(pricePagePath('sweet potato')).toBe('/prices/sweet-potato');
    expect(isTuberSlug('sweet-potato')).toBe(true);
    expect(isTuberSlug('sweet potato')).toBe(false);
    expect(isTuberSlug('banana')).toBe(false);
    expect(isTuberSlug(undefined)).toBe(false);
  });

  it('asks the history of a place with ?location=, of the city without', () => {
    expect(historyApiPath('yam', '')).toBe('/catalog/prices/yam/history');
    expect(historyApiPath('sweet-potato', 'Oyo & Ogbomoso')).toBe('/catalog/prices/sweet-potato/history?location=Oyo+%26+Ogbomoso');
    expect(locationFromSearch('?location=%20Ibadan%20')).toBe('Ibadan');
    expect(locationFromSearch('')).toBe('');
    expect(searchForLocation('Ibadan North')).toBe('?location=Ibadan+North');
    expect(searchForLocation('')).toBe('');
  });
});

describe('what the weeks say', () => {
  it('has no figures when every band is null (the page shows its empty state)', () => {
    expect(hasFigures([week(1), week(2)])).toBe(false);
    expect(hasFigures([week(1), week(2, null, band(900, 1000, 1100))])).toBe(true);
  });

  it('notes a merged week only when there is one (the footnote)', () => {
    expect(hasMergedWeeks([week(1, band(1, 2, 3))])).toBe(false);
    expect(hasMergedWeeks([week(1, null, band(1, 2, 3, { merged: true }))])).toBe(true);
  });

  it('writes a band as "₦1,050–1,300/kg", one price when the quartiles meet', () => {
    const format = formatFor('en');
    const t = (id: string, values?: Record<string, string | number>) => (id === 'prices.per-kg' ? `${values!.range}/kg` : id);
    expect(rangeText(format, band(1050, 1200, 1300))).toBe('₦1,050–1,300');
    expect(rangeText(format, band(1200, 1200, 1200))).toBe('₦1,200');
    expect(perKgRange(t, format, band(1050, 1200, 1300))).toBe('₦1,050–1,300/kg');
  });
});

describe('the chart', () => {
  it('steps the price axis by 1, 2, 2.5 or 5 × 10ⁿ', () => {
    expect(niceStep(1000)).toBe(250);
    expect(niceStep(700)).toBe(200);
    expect(niceStep(90)).toBe(25);
    expect(niceStep(0)).toBe(1);
  });

  it('spans the quartiles of both kinds with round ticks, not from zero', () => {
    const scale = priceScale([week(1, band(1040, 1100, 1310)), week(2, null, band(980, 1200, 1420))])!;
    expect(scale.low).toBeLessThanOrEqual(980);
    expect(scale.high).toBeGreaterThanOrEqual(1420);
    expect(scale.low).toBeGreaterThan(0);
    expect(scale.ticks[0]).toBe(scale.low);
    expect(scale.ticks.at(-1)).toBe(scale.high);
    expect(scale.ticks.length).toBeGreaterThanOrEqual(3);
    expect(scale.ticks.length).toBeLessThanOrEqual(7);
    expect(priceScale([week(1)])).toBeNull();
  });

  it('gives one price everywhere some room around it', () => {
    const scale = priceScale([week(1, band(500, 500, 500))])!;
    expect(scale.low).toBeLessThan(500);
    expect(scale.high).toBeGreaterThan(500);
    expect(yOf(scale, 500)).toBeGreaterThan(0);
    expect(yOf(scale, 500)).toBeLessThan(PLOT_HEIGHT);
  });

  it('breaks the line at a week without a figure (nothing is drawn that the figures do not say)', () => {
    const weeks = [week(1, band(1, 2, 3)), week(2, band(1, 2, 3)), week(3), week(4, band(1, 2, 3))];
    expect(bandRuns(weeks, 'sold').map((run) => run.map((p) => p.index))).toEqual([[0, 1], [3]]);
    expect(bandRuns(weeks, 'asked')).toEqual([]);
  });

  it('draws a lone week as a short stroke across its slot, and a band around its median', () => {
    const scale = { low: 0, high: 200 };
    const [lone] = bandRuns([week(1), week(2, band(50, 100, 150))], 'sold');
    expect(medianPath(lone!, scale)).toBe('M10.5 100 L19.5 100');
    expect(bandPath(lone!, scale)).toBe('M10.5 50 L19.5 50 L19.5 150 L10.5 150 Z');
  });

  it('labels four weeks: the first, the last and two between', () => {
    expect(labelledWeeks(52)).toEqual([0, 17, 34, 51]);
    expect(labelledWeeks(2)).toEqual([0, 1]);
    expect(labelledWeeks(0)).toEqual([]);
  });
});
