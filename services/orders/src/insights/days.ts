// Calendar days as farmers in Nigeria live them: a count belongs to the Africa/Lagos day it happened on,
// whatever the server's own time zone, and a window of N days always ends with today.

export const INSIGHTS_TIME_ZONE = 'Africa/Lagos';

/** The windows the insights page offers. */
export const INSIGHT_WINDOWS = [7, 30] as const;
export type InsightWindow = (typeof INSIGHT_WINDOWS)[number];

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: INSIGHTS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The Lagos calendar day (YYYY-MM-DD) an instant falls on. */
export function lagosDay(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('lagosDay: not a valid date');
  return dayFormat.format(at);
}

/** `day` moved by `delta` calendar days (pure calendar arithmetic: no time zone, no daylight saving). */
export function addDays(day: string, delta: number): string {
  const match = DAY.exec(day);
  if (!match) throw new RangeError(`addDays: "${day}" is not a YYYY-MM-DD day`);
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + delta));
  return at.toISOString().slice(0, 10);
}

/** The `count` days that end with `today`, oldest first. */
export function windowDays(today: string, count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`windowDays: ${count} is not a number of days`);
  return Array.from({ length: count }, (_, i) => addDays(today, i - (count - 1)));
}
