import { describe, expect, it } from 'vitest';
import { INSIGHT_COUNTS } from '@tuber/contracts';
import { addDays, lagosDay, windowDays } from '../../src/insights/days.js';
import { REMOVED_PRODUCT_NAME, summarise, zeroCounts } from '../../src/insights/summary.js';

describe('Lagos days', () => {
  it('puts 23:30 UTC on the next Lagos day (Lagos is an hour ahead, all year)', () => {
    expect(lagosDay(new Date('2026-03-31T23:30:00Z'))).toBe('2026-04-01');
    expect(lagosDay(new Date('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
  });

  it('keeps 22:59 UTC on the same Lagos day', () => {
    expect(lagosDay(new Date('2026-03-31T22:59:59Z'))).toBe('2026-03-31');
  });

  it('does not move with European daylight saving (late March, late October)', () => {
    expect(lagosDay(new Date('2026-03-29T23:00:00Z'))).toBe('2026-03-30');
    expect(lagosDay(new Date('2026-10-25T22:59:00Z'))).toBe('2026-10-25');
  });

  it('refuses an invalid date instead of inventing a day', () => {
    expect(() => lagosDay(new Date('nonsense'))).toThrow(RangeError);
  });

  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2026-05-10', -29)).toBe('2026-04-11');
    expect(() => addDays('10/05/2026', 1)).toThrow(RangeError);
  });

  it('gives a window of 7 days ending today, oldest first', () => {
    expect(windowDays('2026-03-02', 7)).toEqual([
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    const thirty = windowDays('2026-01-15', 30);
    expect(thirty).toHaveLength(30);
    expect(thirty[0]).toBe('2025-12-17');
    expect(thirty.at(-1)).toBe('2026-01-15');
    expect(new Set(thirty).size).toBe(30);
  });
});

describe('summarise', () => {
  const products = [
    { product_id: 'yam', product_name: 'White yam' },
    { product_id: 'cassava', product_name: 'Cassava' },
  ];

  it('fills every day of the window with zeros when nothing was counted', () => {
    const insights = summarise({ days: 7, today: '2026-06-10', records: [], products });
    expect(insights.days).toBe(7);
    expect(insights.daily.map((d) => d.day)).toEqual(windowDays('2026-06-10', 7));
    for (const entry of insights.daily) expect(entry.counts).toEqual(zeroCounts());
    expect(insights.totals).toEqual(zeroCounts());
    // Every product still has a row, with zeros.
    expect(insights.products.map((p) => p.product_name)).toEqual(['Cassava', 'White yam']);
    expect(Object.keys(insights.totals).sort()).toEqual([...INSIGHT_COUNTS].sort());
  });

  it('adds up totals, per product and per day, and leaves out records outside the window', () => {
    const insights = summarise({
      days: 7,
      today: '2026-06-10',
      products,
      records: [
        { product_id: 'yam', day: '2026-06-10', counts: { view: 3, contact_whatsapp: 1 } },
        { product_id: 'yam', day: '2026-06-04', counts: { view: 2, requests_received: 1, requests_accepted: 1 } },
        { product_id: 'cassava', day: '2026-06-10', counts: { view: 1, cart_add: 2 } },
        // The 8th day back, and one in the future: not in a 7-day window.
        { product_id: 'yam', day: '2026-06-03', counts: { view: 50 } },
        { product_id: 'cassava', day: '2026-06-11', counts: { view: 50 } },
      ],
    });
    expect(insights.totals).toMatchObject({ view: 6, contact_whatsapp: 1, cart_add: 2, requests_received: 1, requests_accepted: 1 });
    expect(insights.daily[0]).toEqual({
      day: '2026-06-04',
      counts: { ...zeroCounts(), view: 2, requests_received: 1, requests_accepted: 1 },
    });
    expect(insights.daily[6]).toEqual({ day: '2026-06-10', counts: { ...zeroCounts(), view: 4, contact_whatsapp: 1, cart_add: 2 } });
    expect(insights.daily.slice(1, 6).every((d) => d.counts.view === 0)).toBe(true);
    const yam = insights.products.find((p) => p.product_id === 'yam')!;
    expect(yam.counts).toMatchObject({ view: 5, contact_whatsapp: 1, requests_received: 1, requests_accepted: 1 });
    // Busiest first.
    expect(insights.products.map((p) => p.product_id)).toEqual(['yam', 'cassava']);
  });

  it('counts 30 days in the 30-day window, including the first day', () => {
    const insights = summarise({
      days: 30,
      today: '2026-06-10',
      products,
      records: [
        { product_id: 'yam', day: '2026-05-12', counts: { view: 1 } },
        { product_id: 'yam', day: '2026-05-11', counts: { view: 100 } },
      ],
    });
    expect(insights.daily).toHaveLength(30);
    expect(insights.daily[0]!.day).toBe('2026-05-12');
    expect(insights.totals.view).toBe(1);
  });

  it('names a counted product the projection no longer knows, and drops it when it counted nothing', () => {
    const counted = summarise({
      days: 7,
      today: '2026-06-10',
      products,
      records: [{ product_id: 'gone', day: '2026-06-09', counts: { view: 2 } }],
    });
    expect(counted.products.find((p) => p.product_id === 'gone')?.product_name).toBe(REMOVED_PRODUCT_NAME);
    const silent = summarise({ days: 7, today: '2026-06-10', products, records: [{ product_id: 'gone', day: '2026-06-09', counts: {} }] });
    expect(silent.products.map((p) => p.product_id)).not.toContain('gone');
  });

  it('ignores figures that are not positive whole numbers', () => {
    const insights = summarise({
      days: 7,
      today: '2026-06-10',
      products,
      records: [{ product_id: 'yam', day: '2026-06-10', counts: { view: -4, cart_add: 1.5, contact_phone: null, contact_email: 2 } }],
    });
    expect(insights.totals).toEqual({ ...zeroCounts(), contact_email: 2 });
  });
});
