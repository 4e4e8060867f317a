// When to refresh the access token: a little before it expires, never in a tight loop.

/** Refresh this many seconds before the access token expires. */
export const REFRESH_MARGIN_SECONDS = 30;
/** The API client refreshes first when the token has less than this left. */
export const API_MIN_VALIDITY_SECONDS = 20;

/**
 * Milliseconds until the next refresh for a token expiring at `expSeconds` (epoch seconds, the server's
 * clock), given the client's clock skew in seconds (server minus client, as keycloak-js measures it).
 */
export function refreshDelayMs(expSeconds: number, nowMs: number, skewSeconds = 0, marginSeconds = REFRESH_MARGIN_SECONDS): number {
  const expiresAtClientMs = (expSeconds - skewSeconds) * 1000;
  return Math.max(5_000, expiresAtClientMs - nowMs - marginSeconds * 1000);
}
