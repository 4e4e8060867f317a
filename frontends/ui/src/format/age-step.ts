// The one rule for how old something is on a card ("5 min", "3 hrs", "2 mo"): which unit, and how many.
// Words are the caller's: @tuber/ui's English shortAge and each remote's catalogue (issue 13) read the
// same step. Exported on its own path (@tuber/ui/age), outside the shared singleton, so a remote bundles
// this small pure module itself and never depends on the shell's release having it.

export type AgeUnit = 'now' | 'min' | 'hr' | 'day' | 'mo' | 'yr';

export interface AgeStep {
  unit: AgeUnit;
  /** How many units (0 for 'now'). */
  count: number;
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

/** The age of `from` at `now`; null when `from` is not a time. Under a minute (or slightly ahead, clock skew) is 'now'. */
export function ageStep(timestamp: Date | string | number, now: Date = new Date()): AgeStep | null {
  const from = timestamp instanceof Date ? timestamp : new Date(timestamp);
  if (Number.isNaN(from.getTime())) return null;
  const elapsed = now.getTime() - from.getTime();
  if (elapsed < MINUTE) return { unit: 'now', count: 0 };
  if (elapsed < HOUR) return { unit: 'min', count: Math.floor(elapsed / MINUTE) };
  if (elapsed < DAY) return { unit: 'hr', count: Math.floor(elapsed / HOUR) };
  const months = calendarMonthsBetween(from, now);
  if (months < 1) return { unit: 'day', count: Math.floor(elapsed / DAY) };
  if (months < 12) return { unit: 'mo', count: months };
  return { unit: 'yr', count: Math.floor(months / 12) };
}
