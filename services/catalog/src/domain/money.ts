// Money is integer kobo inside; the API speaks naira with at most 2 decimals.

/** Naira → kobo, or undefined when the amount is negative, not finite or has more than 2 decimals. */
export function nairaToKobo(naira: number): number | undefined {
  if (!Number.isFinite(naira) || naira < 0) return undefined;
  const kobo = Math.round(naira * 100);
  // Reject 3+ decimals: the rounded value must give back the same number.
  if (Math.abs(kobo / 100 - naira) > 1e-9) return undefined;
  return kobo;
}

export const koboToNaira = (kobo: number): number => kobo / 100;
