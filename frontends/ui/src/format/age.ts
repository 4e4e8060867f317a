// Short relative ages for product cards and details: "5 min ago", "1 hr", "3 hrs ago", "2 mo", "1 yr", "4 yrs ago".
// Written by hand rather than with date-fns: the spec's abbreviations would need string surgery on
// formatDistance output ("about 3 hours" → "3 hrs") anyway, and these few thresholds are easy to test.

export interface AgeOptions {
  /** The clock to measure against; defaults to now. */
  now?: Date;
  /** Append " ago" (detail page) or not (cards). Defaults to true. */
  suffix?: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function calendarMonthsBetween(from: Date, to: Date): number {
  let months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  const fromRest = from.getTime() - Date.UTC(from.getUTCFullYear(), from.getUTCMonth());
  const toRest = to.getTime() - Date.UTC(to.getUTCFullYear(), to.getUTCMonth());
  if (toRest < fromRest) months -= 1; // the last month is not complete yet
  return months;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The age of a timestamp in the product's short words, e.g. shortAge('2024-01-01T00:00:00Z') → "2 yrs ago". */
export function shortAge(timestamp: Date | string | number, options: AgeOptions = {}): string {
  const from = timestamp instanceof Date ? timestamp : new Date(timestamp);
  if (Number.isNaN(from.getTime())) throw new RangeError(`not a timestamp: ${String(timestamp)}`);
  const now = options.now ?? new Date();
  const elapsed = now.getTime() - from.getTime();
  // Clock skew can put a fresh product slightly in the future.
  if (elapsed < MINUTE) return 'just now';

  let age: string;
  if (elapsed < HOUR) age = `${Math.floor(elapsed / MINUTE)} min`;
  else if (elapsed < DAY) age = plural(Math.floor(elapsed / HOUR), 'hr', 'hrs');
  else {
    const months = calendarMonthsBetween(from, now);
    if (months < 1) age = plural(Math.floor(elapsed / DAY), 'day', 'days');
    else if (months < 12) age = `${months} mo`;
    else age = plural(Math.floor(months / 12), 'yr', 'yrs');
  }
  return options.suffix === false ? age : `${age} ago`;
}
