// The price guide's pieces (issue 27): the band a line is about, the band in a selling unit, the naira range, and
// what the farmer's line and the buyer's marker say (English, rendered to markup).
import type { PriceBand, PriceNow } from '@tuber/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PriceHint, PriceMarker } from '../../src/components/priceGuide.js';
import { bandInUnit, guideBand, nairaRangeText } from '../../src/format/priceGuide.js';

const sold: PriceBand = { count: 32, p25: 1050, p50: 1180, p75: 1300 };
const asked: PriceBand = { count: 8, p25: 1100, p50: 1250, p75: 1400 };
const now = (over: Partial<PriceNow> = {}): PriceNow => ({
  tuber: 'yam',
  scope: 'city',
  period: 'this_week',
  week: '2026-W48',
  sold,
  asked,
  ...over,
});

/** The text of the markup, tags dropped and entities read. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

describe('guideBand', () => {
  it('takes what sold, else what listings ask, else nothing', () => {
    expect(guideBand(now())).toEqual({ kind: 'sold', band: sold });
    expect(guideBand(now({ sold: null }))).toEqual({ kind: 'asked', band: asked });
    expect(guideBand(now({ sold: null, asked: null, period: null }))).toBeNull();
  });
});

describe('bandInUnit', () => {
  it('multiplies the quartiles per kg by the unit’s average kg, in whole naira', () => {
    expect(bandInUnit(sold, 1)).toEqual({ low: 1050, high: 1300 });
    expect(bandInUnit(sold, 50)).toEqual({ low: 52_500, high: 65_000 });
    expect(bandInUnit(sold, 2.37)).toEqual({ low: 2489, high: 3081 });
  });
  it('gives the band per kg for a weight that is not one', () => {
    expect(bandInUnit(sold, 0)).toEqual({ low: 1050, high: 1300 });
    expect(bandInUnit(sold, Number.NaN)).toEqual({ low: 1050, high: 1300 });
  });
});

describe('nairaRangeText', () => {
  it('writes "₦1,050–1,300": one sign, en-NG groups, whole naira', () => {
    expect(nairaRangeText(1050, 1300)).toBe('₦1,050–1,300');
    expect(nairaRangeText(52_500, 65_000)).toBe('₦52,500–65,000');
  });
  it('writes one amount when both ends are the same, and puts the ends in order', () => {
    expect(nairaRangeText(1200, 1200)).toBe('₦1,200');
    expect(nairaRangeText(1300, 1050)).toBe('₦1,050–1,300');
  });
});

describe('PriceHint (the farmer’s price field)', () => {
  const hint = (props: Partial<Parameters<typeof PriceHint>[0]> = {}) =>
    text(renderToStaticMarkup(<PriceHint now={now()} tuberName="yam" unitLabel="per kg" kgPerUnit={1} {...props} />));

  it('says what the tuber sold for this week, per kg, with the number of sales', () => {
    expect(hint()).toBe('This week yam sold for ₦1,050–1,300 per kg (32 sales)');
  });
  it('says it in the selling unit once its weight is known', () => {
    expect(hint({ unitLabel: 'per 50 kg bag', kgPerUnit: 50 })).toBe('This week yam sold for ₦52,500–65,000 per 50 kg bag (32 sales)');
  });
  it('says "Last week" for last week’s figures', () => {
    expect(hint({ now: now({ period: 'last_week' }) })).toBe('Last week yam sold for ₦1,050–1,300 per kg (32 sales)');
  });
  it('shows what listings ask when nothing sold', () => {
    expect(hint({ now: now({ sold: null }) })).toBe('This week yam listings ask ₦1,100–1,400 per kg (8 listings)');
  });
  it('says "Not enough … sales yet" without figures', () => {
    expect(hint({ now: now({ sold: null, asked: null, period: null }) })).toBe('Not enough yam sales yet to show this week’s price.');
  });
  it('adds a gentle note for a price far outside (30 % beyond a quartile), none inside', () => {
    expect(hint({ pricePerKg: 2000 })).toContain('This is well above what yam sold for this week.');
    expect(hint({ pricePerKg: 600 })).toContain('This is well below what yam sold for this week.');
    expect(hint({ pricePerKg: 1500 })).not.toContain('well');
    expect(hint({ now: now({ sold: null }), pricePerKg: 3000 })).toContain('This is well above what yam listings ask this week.');
  });
  it('shows nothing while the figures load or when they could not be had', () => {
    expect(renderToStaticMarkup(<PriceHint now={undefined} tuberName="yam" unitLabel="per kg" kgPerUnit={1} />)).toBe('');
  });
});

describe('PriceMarker (the buyer’s card and product page)', () => {
  const marker = (pricePerKg: number, figures: PriceNow | undefined = now()) =>
    renderToStaticMarkup(<PriceMarker now={figures} pricePerKg={pricePerKg} tuberName="yam" perKgLabel="per kg" />);

  it('says Below / Around / Above this week’s price against the quartiles', () => {
    expect(text(marker(900))).toMatch(/^↓ Below this week’s price /);
    expect(text(marker(1200))).toMatch(/^≈ Around this week’s price /);
    expect(text(marker(1301))).toMatch(/^↑ Above this week’s price /);
    expect(text(marker(1301, now({ period: 'last_week' })))).toMatch(/^↑ Above last week’s price /);
  });
  it('keeps the range behind a button (collapsed, controlling the hidden range)', () => {
    const html = marker(1200);
    expect(html).toMatch(/<button type="button"[^>]*aria-expanded="false"[^>]*aria-controls="([^"]+)"/);
    const controls = /aria-controls="([^"]+)"/.exec(html)![1];
    const range = new RegExp(`<p id="${controls}"[^>]*hidden=""[^>]*>(.*?)</p>`).exec(html)?.[1];
    expect(text(range ?? '')).toBe('This week yam sold for ₦1,050–1,300 per kg (32 sales)');
    // The range in one piece (it would break after its dash on a phone).
    expect(range).toContain('<span class="_range_');
  });
  it('uses what listings ask when nothing sold, and shows nothing without figures', () => {
    expect(text(marker(1000, now({ sold: null })))).toContain('This week yam listings ask ₦1,100–1,400 per kg (8 listings)');
    expect(marker(1000, now({ sold: null, asked: null, period: null }))).toBe('');
    expect(renderToStaticMarkup(<PriceMarker now={undefined} pricePerKg={1000} tuberName="yam" perKgLabel="per kg" />)).toBe('');
  });
});
