// What the insights page shows, worked out from the API's Insights answer: labels, the groups of the
// daily chart, the chart's scale, and readable day names. Pure, so the page only draws.
import type { InsightCount, Insights } from '@tuber/contracts';

export type Counts = Insights['totals'];
export type InsightWindow = Insights['days'];
export const INSIGHT_WINDOWS: readonly InsightWindow[] = [7, 30];

export const EMPTY_MESSAGE = 'No activity yet. When buyers view your products, contact you or add them to a cart, the counts appear here.';
export const insightsFailedMessage = (message: string) => `Your insights could not be loaded: ${message}`;

/** The per-product table's columns, in order, with the words a farmer reads. */
export const PRODUCT_COLUMNS: { key: InsightCount; label: string }[] = [
  { key: 'view', label: 'Views' },
  { key: 'contact_phone', label: 'Phone' },
  { key: 'contact_email', label: 'E-mail' },
  { key: 'contact_whatsapp', label: 'WhatsApp' },
  { key: 'cart_add', label: 'Cart adds' },
  { key: 'requests_received', label: 'Requests received' },
  { key: 'requests_accepted', label: 'Requests accepted' },
];

export const contactClicks = (counts: Counts) => counts.contact_phone + counts.contact_email + counts.contact_whatsapp;

/** The chart's stacked series (each bar is one day): what buyers did, most common first. */
export const CHART_SERIES = [
  { key: 'views', label: 'Views', of: (c: Counts) => c.view },
  { key: 'contacts', label: 'Contact clicks', of: contactClicks },
  { key: 'carts', label: 'Cart adds', of: (c: Counts) => c.cart_add },
  { key: 'requests', label: 'Requests', of: (c: Counts) => c.requests_received },
] as const;
export type ChartSeriesKey = (typeof CHART_SERIES)[number]['key'];

/** The figures at the top of the page. */
export function totalCards(totals: Counts): { key: string; label: string; value: number; detail?: string }[] {
  return [
    { key: 'views', label: 'Views', value: totals.view },
    {
      key: 'contacts',
      label: 'Contact clicks',
      value: contactClicks(totals),
      detail: `Phone ${totals.contact_phone} · E-mail ${totals.contact_email} · WhatsApp ${totals.contact_whatsapp}`,
    },
    { key: 'carts', label: 'Cart adds', value: totals.cart_add },
    { key: 'received', label: 'Requests received', value: totals.requests_received },
    { key: 'accepted', label: 'Requests accepted', value: totals.requests_accepted },
  ];
}

export const hasActivity = (totals: Counts) => Object.values(totals).some((n) => n > 0);

/** A YYYY-MM-DD day as people say it: "3 Jun" (the day is a calendar day: no time zone applies). */
export function dayLabel(day: string, style: 'short' | 'long' = 'short'): string {
  const at = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return day;
  return new Intl.DateTimeFormat('en-NG', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    ...(style === 'long' ? { weekday: 'short' } : {}),
  }).format(at);
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
    const parts = CHART_SERIES.map((s, i) => `${segments[i]!.value} ${s.label.toLowerCase()}`);
    return { day, total, segments, description: `${dayLabel(day, 'long')}: ${parts.join(', ')}` };
  });
  const busiest = bars.reduce<ChartBar | undefined>((best, bar) => (bar.total > (best?.total ?? 0) ? bar : best), undefined);
  return { bars, top: chartTop(busiest?.total ?? 0), ...(busiest ? { busiest } : {}) };
}

/** The days=… of the page's address, if it names a window the page offers. */
export function windowFromSearch(search: string): InsightWindow {
  return new URLSearchParams(search).get('days') === '30' ? 30 : 7;
}
