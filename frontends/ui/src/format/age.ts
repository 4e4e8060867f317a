// Short relative ages for product cards and details: "5 min ago", "1 hr", "3 hrs ago", "2 mo", "1 yr", "4 yrs ago".
// Written by hand rather than with date-fns: the spec's abbreviations would need string surgery on
// formatDistance output ("about 3 hours" → "3 hrs") anyway, and these few thresholds are easy to test.
import { ageStep, type AgeUnit } from './age-step.js';

export interface AgeOptions {
  /** The clock to measure against; defaults to now. */
  now?: Date;
  /** Append " ago" (detail page) or not (cards). Defaults to true. */
  suffix?: boolean;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const ENGLISH: Record<Exclude<AgeUnit, 'now'>, (count: number) => string> = {
  min: (count) => `${count} min`,
  hr: (count) => plural(count, 'hr', 'hrs'),
  day: (count) => plural(count, 'day', 'days'),
  mo: (count) => `${count} mo`,
  yr: (count) => plural(count, 'yr', 'yrs'),
};

/** The age of a timestamp in the product's short words, e.g. shortAge('2024-01-01T00:00:00Z') → "2 yrs ago". */
export function shortAge(timestamp: Date | string | number, options: AgeOptions = {}): string {
  const step = ageStep(timestamp, options.now);
  if (!step) throw new RangeError(`not a timestamp: ${String(timestamp)}`);
  if (step.unit === 'now') return 'just now';
  const age = ENGLISH[step.unit](step.count);
  return options.suffix === false ? age : `${age} ago`;
}
