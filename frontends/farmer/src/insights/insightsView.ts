// What the insights page shows, worked out from the API's Insights answer: labels, the groups of the
// daily chart, the chart's scale, and readable day names. Pure, so the page only draws.
import type { InsightCount, Insights } from '@tuber/contracts';
import { tr } from '../i18n/t.js';
import { dayWords } from '@tuber/ui';

export type Counts = Insights['totals'];
export type InsightWindow = Insights['days'];
export const INSIGHT_WINDOWS: readonly InsightWindow[] = [7, 30];

export const emptyMessage = () => tr('insights.empty');
export const insightsFailedMessage = (message: string) => tr('insights.failed', { message });

/** The per-product table's columns, in order, with the words a farmer reads (`label` is a message id). */
export const PRODUCT_COLUMNS: { key: InsightCount; label: string }[] = [
  { key: 'view', label: 'insights.views' },
  { key: 'contact_phone', label: 'insights.phone' },
  { key: 'contact_email', label: 'insights.email' },
  { key: 'contact_whatsapp', label: 'insights.whatsapp' },
  { key: 'cart_add', label: 'insights.cart_adds' },
  { key: 'requests_received', label: 'insights.requests_received' },
  { key: 'requests_accepted', label: 'insights.requests_accepted' },
];

export const contactClicks = (counts: Counts) => counts.contact_phone + counts.contact_email + counts.contact_whatsapp;

/** The chart's stacked series (each bar is one day): what buyers did, most common first (`label` is a message id). */
export const CHART_SERIES = [
  { key: 'views', label: 'insights.views', of: (c: Counts) => c.view },
  { key: 'contacts', label: 'insights.contact_clicks', of: contactClicks },
  { key: 'carts', label: 'insights.cart_adds', of: (c: Counts) => c.cart_add },
  { key: 'requests', label: 'insights.requests', of: (c: Counts) => c.requests_received },
] as const;
export type ChartSeriesKey = (typeof CHART_SERIES)[number]['key'];

/** The figures at the top of the page. */
export function totalCards(totals: Counts): { key: string; label: string; value: number; detail?: string }[] {
  return [
    { key: 'views', label: tr('insights.views'), value: totals.view },
    {
      key: 'contacts',
      label: tr('insights.contact_clicks'),
      value: contactClicks(totals),
      detail: tr('insights.contact_detail', {
        phone: totals.contact_phone,
        email: totals.contact_email,
        whatsapp: totals.contact_whatsapp,
      }),
    },
    { key: 'carts', label: tr('insights.cart_adds'), value: totals.cart_add },
    { key: 'received', label: tr('insights.requests_received'), value: totals.requests_received },
    { key: 'accepted', label: tr('insights.requests_accepted'), value: totals.requests_accepted },
  ];
}

export const hasActivity = (totals: Counts) => Object.values(totals).some((n) => n > 0);

/** A YYYY-MM-DD day as people say it: "3 Jun" (the day is a calendar day: no time zone applies). */
export function dayLabel(day: string, style: 'short' | 'long' = 'short'): string {
  return dayWords(day, { year: false, weekday: style === 'long' });
}

/** A round top for the chart's scale: at least 4, else the next of 1, 2, 5 × 10ⁿ at or above the highest bar. */
export function chartTop(highest: number): number {
  if (highest <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(highest));
  for (const step of [1, 2, 5, 10]) if (step * power >= highest) return step * power;
  return 10 * power;
}

export interface ChartBar {
  day: string;
  total: number;
  segments: { key: ChartSeriesKey; value: number }[];
  /** What the bar says in words (tooltip and table). */
  description: string;
}

export function chartBars(daily: Insights['daily']): { bars: ChartBar[]; top: number; busiest?: ChartBar } {
  const bars = daily.map(({ day, counts }) => {
    const segments = CHART_SERIES.map((s) => ({ key: s.key, value: s.of(counts) }));
    const total = segments.reduce((sum, s) => sum + s.value, 0);
    const [views, contacts, carts, requests] = segments.map((s) => s.value);
    return {
      day,
      total,
      segments,
      description: tr('insights.bar', {
        day: dayLabel(day, 'long'),
        views: views!,
        contacts: contacts!,
        carts: carts!,
        requests: requests!,
      }),
    };
  });
  const busiest = bars.reduce<ChartBar | undefined>((best, bar) => (bar.total > (best?.total ?? 0) ? bar : best), undefined);
  return { bars, top: chartTop(busiest?.total ?? 0), ...(busiest ? { busiest } : {}) };
}

/** The days=… of the page's address, if it names a window the page offers. */
export function windowFromSearch(search: string): InsightWindow {
  return new URLSearchParams(search).get('days') === '30' ? 30 : 7;
}
