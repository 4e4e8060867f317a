// When to refresh the access token: a little before it expires, never in a tight loop.

/** Refresh this many seconds before the access token expires. */
export const REFRESH_MARGIN_SECONDS = 30;
/** The API client refreshes first when the token has less than this left. */
export const API_MIN_VALIDITY_SECONDS = 20;

/**
 * Milliseconds until the next refresh for a token expiring at `expSeconds` (epoch seconds, the server's
 * clock), given the clock skew in seconds as keycloak-js measures it (`timeSkew`: the browser's clock
 * minus the server's, so the token expires at `exp + timeSkew` by the browser's clock).
 */
export function refreshDelayMs(expSeconds: number, nowMs: number, skewSeconds = 0, marginSeconds = REFRESH_MARGIN_SECONDS): number {
  const expiresAtClientMs = (expSeconds + skewSeconds) * 1000;
  return Math.max(5_000, expiresAtClientMs - nowMs - marginSeconds * 1000);
}

/** After a refresh that failed without Keycloak refusing it (offline, server restarting), try again this soon. */
export const REFRESH_RETRY_MS = 10_000;

/**
 * Whether a failed refresh should be tried again rather than end the session: keycloak-js drops the
 * refresh token itself when Keycloak refuses it (400), so one still held, and not yet expired by the
 * server's clock, means the failure was the network's.
 */
export function shouldRetryRefresh(
  refreshToken: string | undefined,
  refreshExpSeconds: number | undefined,
  nowMs: number,
  skewSeconds = 0,
): boolean {
  if (!refreshToken) return false;
  if (refreshExpSeconds === undefined) return true; // an offline token: no expiry of its own
  return (refreshExpSeconds + skewSeconds) * 1000 > nowMs;
}
