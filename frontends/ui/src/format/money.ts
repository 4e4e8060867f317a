// Money is integer kobo inside the app; this is the one place it becomes naira text (spec: en-NG, NGN, 2 decimals).

// Made on first use, not when the module loads: a page's first Intl.NumberFormat costs some 15–40 ms on a
// desktop (the number data is set up), several times that on a cheap phone, and most pages show no price.
// A page that will show prices can make it while it waits for the network (prepareNumberFormats, product.ts).
let naira: Intl.NumberFormat | null = null;

/** The naira format, made once. */
export const nairaFormat = (): Intl.NumberFormat =>
  (naira ??= new Intl.NumberFormat('en-NG', {
    style: 'currency',
    currency: 'NGN',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }));

/** Formats an integer amount of kobo as naira, e.g. 123450 → "₦1,234.50". */
export function formatNaira(kobo: number): string {
  if (!Number.isSafeInteger(kobo)) {
    throw new RangeError(`formatNaira expects a whole number of kobo, got ${kobo}`);
  }
  // Build the exact decimal string so large amounts never pick up binary-float rounding.
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const fraction = abs % 100;
  const whole = (abs - fraction) / 100;
  const decimal = `${sign}${whole}.${String(fraction).padStart(2, '0')}`;
  return nairaFormat().format(decimal as unknown as number);
}

/** Naira for the API edge (the catalog API speaks naira with at most 2 decimals; see ADR 0010). */
export function koboToNaira(kobo: number): number {
  if (!Number.isSafeInteger(kobo)) throw new RangeError(`not a whole number of kobo: ${kobo}`);
  return kobo / 100;
}

/** Converts a naira amount typed by a person (at most 2 decimals) to integer kobo. */
export function nairaToKobo(naira: number): number {
  if (!Number.isFinite(naira)) throw new RangeError(`not a naira amount: ${naira}`);
  return Math.round(naira * 100);
}
