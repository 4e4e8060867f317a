// The price page's arithmetic (issue 27), free of React: which tubers have a page, the chart's scale and shapes,
// and what a week's figures say. The chart component only draws what these return.
import type { PriceBand, PriceHistory, PriceNow, PriceNowAll, PriceWeek } from '@tuber/contracts';

/** The seven tubers as in their page's address (/prices/sweet-potato), in the spec's order. */
export const TUBER_SLUGS = ['yam', 'cassava', 'potato', 'sweet-potato', 'tumeric', 'garlic', 'ginger'] as const;
export type TuberSlug = (typeof TUBER_SLUGS)[number];

export const isTuberSlug = (slug: string | undefined): slug is TuberSlug => TUBER_SLUGS.includes(slug as TuberSlug);

/** The page of a tuber, as the catalog names it ("sweet potato") or as a slug. */
export const pricePagePath = (tuber: string): string => `/prices/${tuber.replace(/ /g, '-')}`;

/** The history's API path; `location` empty for the whole city. */
export function historyApiPath(slug: TuberSlug, location: string): string {
  const query = location ? `?${new URLSearchParams({ location }).toString()}` : '';
  return `/catalog/prices/${slug}/history${query}`;
}

/** The place asked for in the page's address (?location=), trimmed; '' for the whole city. */
export const locationFromSearch = (search: string): string => (new URLSearchParams(search).get('location') ?? '').trim();

/** The page's address search for a place ('' for the whole city). */
export const searchForLocation = (location: string): string => (location ? `?${new URLSearchParams({ location }).toString()}` : '');

export type BandKind = 'sold' | 'asked';
export const BAND_KINDS: readonly BandKind[] = ['sold', 'asked'];

/** Whether any week has a figure: without one the page shows its empty state, not an empty chart. */
export const hasFigures = (weeks: readonly PriceWeek[]): boolean => weeks.some((week) => week.sold || week.asked);

/** Whether any week's figure was merged with its neighbours' (the footnote is shown only then). */
export const hasMergedWeeks = (weeks: readonly PriceWeek[]): boolean => weeks.some((week) => week.sold?.merged || week.asked?.merged);

/** The figures' week: the last of the history (this week). */
export const thisWeek = (history: Pick<PriceHistory, 'weeks'>): PriceWeek | undefined => history.weeks.at(-1);

// ---------- the chart ----------

/** The plot's own coordinates (the SVG's viewBox): one slot of SLOT units per week, the band drawn at its middle. */
export const SLOT = 10;
export const PLOT_HEIGHT = 200;

export interface PriceScale {
  low: number;
  high: number;
  /** Round values between low and high (inclusive) for the axis labels, lowest first. */
  ticks: number[];
}

/** A step of 1, 2, 2.5 or 5 × 10ⁿ that cuts `span` into about `count` parts. */
export function niceStep(span: number, count = 4): number {
  if (!(span > 0)) return 1;
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10;
  return Math.max(1, step * power);
}

/**
 * The price axis for the weeks' figures (both kinds): from a round value under the lowest lower quartile to one
 * over the highest upper quartile, so the band's ups and downs fill the plot instead of sitting on a zero line.
 * Null when there are no figures.
 */
export function priceScale(weeks: readonly PriceWeek[]): PriceScale | null {
  const values = weeks.flatMap((week) => BAND_KINDS.flatMap((kind) => (week[kind] ? [week[kind]!.p25, week[kind]!.p75] : [])));
  if (values.length === 0) return null;
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (max === min) {
    // One price everywhere: some room around it.
    min = Math.max(0, min - Math.max(50, min * 0.1));
    max += Math.max(50, max * 0.1);
  }
  const step = niceStep(max - min);
  const low = Math.max(0, Math.floor(min / step) * step);
  const high = Math.max(low + step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let value = low; value <= high + step / 1000; value += step) ticks.push(Math.round(value * 100) / 100);
  return { low, high, ticks };
}

/** Where a price sits on the plot: 0 at the top, PLOT_HEIGHT at the scale's low. */
export const yOf = (scale: Pick<PriceScale, 'low' | 'high'>, price: number): number =>
  PLOT_HEIGHT - ((price - scale.low) / (scale.high - scale.low)) * PLOT_HEIGHT;

/** The middle of week `index`'s slot. */
export const xOf = (index: number): number => index * SLOT + SLOT / 2;

/** A point of the chart: a week's band of one kind. */
export interface BandPoint extends Pick<PriceBand, 'p25' | 'p50' | 'p75'> {
  index: number;
}

/** The runs of consecutive weeks that have a band of `kind`: a week without one breaks the line (no figure is made up). */
export function bandRuns(weeks: readonly PriceWeek[], kind: BandKind): BandPoint[][] {
  const runs: BandPoint[][] = [];
  let run: BandPoint[] | null = null;
  weeks.forEach((week, index) => {
    const band = week[kind];
    if (!band) {
      run = null;
      return;
    }
    if (!run) runs.push((run = []));
    run.push({ index, p25: band.p25, p50: band.p50, p75: band.p75 });
  });
  return runs;
}

/**
 * A run's x positions: through the middle of each week's slot; a lone week gets a short stroke across its slot
 * (a line of one point would not show).
 */
function runXs(run: readonly BandPoint[]): [number, number][] {
  if (run.length === 1) {
    const x = xOf(run[0]!.index);
    return [[x - SLOT * 0.45, 0], [x + SLOT * 0.45, 0]];
  }
  return run.map((point, i) => [xOf(point.index), i]);
}

const fixed = (n: number) => Number(n.toFixed(2));

/** The SVG path of a run's median line. */
export function medianPath(run: readonly BandPoint[], scale: Pick<PriceScale, 'low' | 'high'>): string {
  return runXs(run)
    .map(([x, i], n) => `${n === 0 ? 'M' : 'L'}${fixed(x)} ${fixed(yOf(scale, run[i]!.p50))}`)
    .join(' ');
}

/** The SVG path of a run's quartile band: along the upper quartiles, back along the lower ones. */
export function bandPath(run: readonly BandPoint[], scale: Pick<PriceScale, 'low' | 'high'>): string {
  const xs = runXs(run);
  const upper = xs.map(([x, i]) => `${fixed(x)} ${fixed(yOf(scale, run[i]!.p75))}`);
  const lower = [...xs].reverse().map(([x, i]) => `${fixed(x)} ${fixed(yOf(scale, run[i]!.p25))}`);
  return `M${upper.join(' L')} L${lower.join(' L')} Z`;
}

/** Which weeks get a date under the chart: the first, the last and two between (four fit on a 360 px phone). */
export function labelledWeeks(count: number, labels = 4): number[] {
  if (count <= 0) return [];
  if (count <= labels) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: labels }, (_, i) => Math.round((i * (count - 1)) / (labels - 1)));
}

/** A share of the plot's width or height as a CSS percentage (for labels placed over the plot). */
export const percent = (part: number, whole: number): string => `${fixed((part / whole) * 100)}%`;

/** Every tuber's city-wide figures this week (GET /api/catalog/prices/now, public), by slug: the landing's price links. */
export async function fetchPricesNow(api: { get<T>(path: string): Promise<T> }): Promise<Map<string, PriceNow>> {
  const answer = await api.get<PriceNowAll>('/catalog/prices/now');
  return new Map(answer.items.map((item) => [item.tuber.replace(/ /g, '-'), item]));
}
