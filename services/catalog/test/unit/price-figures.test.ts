// The price guide's arithmetic (issue 27): Lagos weeks, quartiles checked by hand, the privacy gate, merging a thin
// week with its neighbours, and the seasonal hint computed from a year of figures.
import type { PriceWeek } from '@tuber/contracts';
import { farOutside, pricePosition } from '@tuber/contracts';
import { describe, expect, it } from 'vitest';
import {
  bandOf,
  locationKey,
  mondayDate,
  mondayOf,
  quantile,
  seasonalHint,
  weekId,
  weeklyBands,
  type PricePoint,
} from '../../src/prices/figures.js';

const points = (values: number[], farmers = values.length, buyers = values.length): PricePoint[] =>
  values.map((perKg, i) => ({ perKg, farmer: `f${i % farmers}`, buyer: `b${i % buyers}` }));

describe('Lagos weeks', () => {
  it('numbers weeks as ISO does, in Lagos time', () => {
    const sunday = Date.parse('2026-11-29T12:00:00Z');
    expect(mondayDate(mondayOf(sunday))).toBe('2026-11-23');
    expect(weekId(mondayOf(sunday))).toBe('2026-W48');
    // 23:30 UTC on Sunday is 00:30 on Monday in Lagos: the next week.
    expect(weekId(mondayOf(Date.parse('2026-11-29T23:30:00Z')))).toBe('2026-W49');
    // 1 January 2026 is a Thursday: its week is 2026-W01 and starts on 29 December 2025.
    expect(weekId(mondayOf(Date.parse('2026-01-01T10:00:00Z')))).toBe('2026-W01');
    expect(mondayDate(mondayOf(Date.parse('2026-01-01T10:00:00Z')))).toBe('2025-12-29');
    // 31 December 2020 (a Thursday) is in 2020-W53.
    expect(weekId(mondayOf(Date.parse('2020-12-31T10:00:00Z')))).toBe('2020-W53');
  });
});

describe('quartiles', () => {
  it('interpolates between the closest ranks (checked by hand)', () => {
    expect(quantile([1000, 1100, 1200, 1300], 0.25)).toBeCloseTo(1075);
    expect(quantile([1000, 1100, 1200, 1300], 0.5)).toBeCloseTo(1150);
    expect(quantile([1000, 1100, 1200, 1300], 0.75)).toBeCloseTo(1225);
    expect(quantile([900, 1000, 1050, 1300, 2000], 0.5)).toBe(1050);
  });
});

describe('the privacy gate', () => {
  it('gives no band from fewer than 5 points', () => {
    expect(bandOf(points([1000, 1100, 1200, 1300]), 'sold')).toBeNull();
    expect(bandOf(points([900, 1000, 1050, 1300, 2000]), 'sold')).toEqual({ count: 5, p25: 1000, p50: 1050, p75: 1300 });
  });
  it('gives none when fewer than 3 farmers made the points, however many there are', () => {
    expect(bandOf(points([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1), 'asked')).toBeNull();
    expect(bandOf(points([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 2), 'asked')).toBeNull();
    expect(bandOf(points([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3), 'asked')).not.toBeNull();
  });
  it('gives no sold band when fewer than 3 buyers paid', () => {
    expect(bandOf(points([1, 2, 3, 4, 5, 6], 6, 2), 'sold')).toBeNull();
    expect(bandOf(points([1, 2, 3, 4, 5, 6], 6, 2), 'asked')).not.toBeNull();
  });
  it('merges a thin week with its neighbours, or leaves it out', () => {
    const weeks = [points([1000, 1000]), points([1100, 1200, 1300]), [], points([1, 2, 3, 4, 5])];
    const bands = weeklyBands(weeks, 'asked');
    expect(bands[0]).toEqual({ count: 5, p25: 1000, p50: 1100, p75: 1200, merged: true });
    expect(bands[1]).toEqual({ count: 5, p25: 1000, p50: 1100, p75: 1200, merged: true });
    // No point of its own: nothing to show, even with full neighbours.
    expect(bands[2]).toBeNull();
    expect(bands[3]).toEqual({ count: 5, p25: 2, p50: 3, p75: 4 });
    // One farmer's many points stay hidden merged too.
    expect(weeklyBands([points([1, 2, 3], 1), points([4, 5, 6], 1)], 'asked')).toEqual([null, null]);
  });
});

describe('the seasonal hint', () => {
  const year = (median: (month: number) => number): PriceWeek[] =>
    Array.from({ length: 52 }, (_, i) => {
      const starts = new Date(Date.UTC(2025, 11, 1) + i * 7 * 86_400_000);
      const month = new Date(starts.getTime() + 3 * 86_400_000).getUTCMonth() + 1;
      const p50 = median(month);
      return { week: `w${i}`, starts: starts.toISOString().slice(0, 10), sold: { count: 9, p25: p50 - 50, p50, p75: p50 + 50 }, asked: null };
    });
  const now = Date.UTC(2026, 10, 25);
  const aYearAgo = now - 365 * 86_400_000;

  it('says prices fall in August when the August median is a third under July', () => {
    const weeks = year((m) => (m >= 8 && m <= 10 ? 800 : 1200));
    expect(seasonalHint(weeks, aYearAgo, now)).toEqual({ direction: 'fall', month: 8, change: -0.33 });
  });
  it('says nothing under a 10 % change, or before a full year of sales', () => {
    expect(seasonalHint(year((m) => 1000 + m), aYearAgo, now)).toBeNull();
    expect(seasonalHint(year((m) => (m === 8 ? 800 : 1200)), now - 200 * 86_400_000, now)).toBeNull();
    expect(seasonalHint(year((m) => (m === 8 ? 800 : 1200)), null, now)).toBeNull();
  });
  it('names a rise when there is no fall (the year wraps: January is compared with December)', () => {
    // A jump in March, then a slow slide back that never falls 10 % in a month.
    expect(seasonalHint(year((m) => (m >= 3 ? 1300 - (m - 3) * 15 : 1100)), aYearAgo, now)).toMatchObject({ direction: 'rise', month: 3 });
    expect(seasonalHint(year((m) => (m >= 3 ? 1300 : 1000)), aYearAgo, now)).toMatchObject({ direction: 'fall', month: 1 });
  });
});

describe('where a price stands', () => {
  it('is below, around or above the quartiles, and far outside beyond 30 %', () => {
    const band = { p25: 1000, p75: 1300 };
    expect(pricePosition(999, band)).toBe('below');
    expect(pricePosition(1000, band)).toBe('around');
    expect(pricePosition(1301, band)).toBe('above');
    expect(farOutside(699, band)).toBe('low');
    expect(farOutside(800, band)).toBeNull();
    expect(farOutside(1700, band)).toBe('high');
  });
  it('keys places by their words', () => {
    expect(locationKey('  Ibadan   North ')).toBe('ibadan north');
  });
});
