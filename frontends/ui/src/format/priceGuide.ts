// The price guide's figures as the farmer's price field and the buyer's marker show them (issue 27, docs/adr/0072):
// which band a line is about, the band in a selling unit, and the range in naira. Pure, unit-tested.
import type { PriceBand, PriceNow } from '@tuber/contracts';

/** The band a guide shows: what sold that week, else what listings asked; null when neither has enough points. */
export function guideBand(now: Pick<PriceNow, 'sold' | 'asked'>): { kind: 'sold' | 'asked'; band: PriceBand } | null {
  if (now.sold) return { kind: 'sold', band: now.sold };
  if (now.asked) return { kind: 'asked', band: now.asked };
  return null;
}

/**
 * The band's quartiles for one selling unit in whole naira: naira per kg × the unit's average kg ("₦52,500–65,000
 * per 50 kg bag"). A weight that is not a positive number gives the band per kg.
 */
export function bandInUnit(band: Pick<PriceBand, 'p25' | 'p75'>, kgPerUnit: number): { low: number; high: number } {
  const kg = Number.isFinite(kgPerUnit) && kgPerUnit > 0 ? kgPerUnit : 1;
  return { low: Math.round(band.p25 * kg), high: Math.round(band.p75 * kg) };
}

// Made on first use (see money.ts): most pages show no range.
let wholeNaira: Intl.NumberFormat | null = null;
let grouped: Intl.NumberFormat | null = null;

/** "₦1,050–1,300" (en-NG, whole naira, one sign); "₦1,200" when both ends are the same. */
export function nairaRangeText(low: number, high: number): string {
  wholeNaira ??= new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 0, maximumFractionDigits: 0 });
  grouped ??= new Intl.NumberFormat('en-NG', { maximumFractionDigits: 0 });
  const [from, to] = low <= high ? [low, high] : [high, low];
  return from === to ? wholeNaira.format(from) : `${wholeNaira.format(from)}–${grouped.format(to)}`;
}
