// The browser sign-ins the auth service keeps (token-mediating backend): after the shell hands over a
// sign-in's refresh token, this service is its only holder and refresher, so a returning browser gets
// an access token in one same-origin request instead of keycloak-js's hidden-iframe silent check.
// The browser holds only a random cookie; Redis holds the tokens under a hash of it, so a read of
// Redis alone gives no cookie to present.
//
//   auth:session:<sha256(cookie)>       → JSON SessionRecord, EX = Keycloak's refresh_expires_in
//   auth:session-lock:<sha256(cookie)>  → owner token, PX 10 s (one refresh at a time: tokens rotate)
//   auth:account-changed:<sub>          → ms when this service last changed the account's attributes, EX 5 min:
//                                         a token minted before that is not handed out again (its claims are old)
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RedisClient } from '@tuber/kit';

export interface SessionRecord {
  sub: string;
  /** Keycloak's session id (the access token's `sid`), for logs and a later back-channel logout. */
  sid: string;
  refresh_token: string;
  access_token: string;
  id_token: string;
  /** Milliseconds since the epoch, by this server's clock (minted_at + expires_in). */
  access_expires_at: number;
  /** When this service got the access token from Keycloak (ms, server clock). */
  minted_at: number;
}

/** How long a record lives when Keycloak gives no refresh_expires_in (0 means "as long as the SSO session"). */
export const DEFAULT_SESSION_SECONDS = 30 * 24 * 60 * 60;

const digest = (cookie: string) => createHash('sha256').update(cookie, 'utf8').digest('hex');
export const sessionKey = (cookie: string) => `auth:session:${digest(cookie)}`;
const lockKey = (cookie: string) => `auth:session-lock:${digest(cookie)}`;
const changedKey = (sub: string) => `auth:account-changed:${sub}`;
/** Longer than any reuse of a minted token: after it, every kept token is newer or refreshed anyway. */
const CHANGED_MARK_SECONDS = 5 * 60;

const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

export interface LockTiming {
  /** How long the lock lives if its holder dies (the holder's Keycloak call is bounded well below this). */
  ttlMs: number;
  /** Longest wait for a lock another request holds. */
  waitMs: number;
  pollMs: number;
}

export const LOCK_TIMING: LockTiming = { ttlMs: 10_000, waitMs: 5_000, pollMs: 50 };

function isRecord(value: unknown): value is SessionRecord {
  const r = value as Partial<SessionRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.sub === 'string' &&
    typeof r.refresh_token === 'string' &&
    typeof r.access_token === 'string' &&
    typeof r.access_expires_at === 'number' &&
    typeof r.minted_at === 'number'
  );
}

export class SessionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly timing: LockTiming = LOCK_TIMING,
  ) {}

  /** A new cookie value: 32 random bytes, base64url (43 characters). */
  static newCookie(): string {
    return randomBytes(32).toString('base64url');
  }

  /** Throws if Redis cannot be asked. */
  async check(): Promise<void> {
    await this.redis.ping();
  }

  /** The record kept for this cookie, or undefined (none, expired, or unreadable). Throws if Redis cannot be asked. */
  async read(cookie: string): Promise<SessionRecord | undefined> {
    const text = await this.redis.get(sessionKey(cookie));
    if (text === null) return undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  async write(cookie: string, record: SessionRecord, ttlSeconds: number): Promise<void> {
    await this.redis.set(sessionKey(cookie), JSON.stringify(record), { expiration: { type: 'EX', value: ttlSeconds } });
  }

  async delete(cookie: string): Promise<void> {
    await this.redis.del(sessionKey(cookie));
  }

  /**
   * The account's claims changed in Keycloak (pending_profile cleared, language): the user's kept sign-ins
   * stop handing out tokens minted before now and refresh instead, so a reload right after the first sign-in
   * does not show "partially set up" from the token minted at the hand-over.
   */
  async markAccountChanged(sub: string, at = Date.now()): Promise<void> {
    await this.redis.set(changedKey(sub), String(at), { expiration: { type: 'EX', value: CHANGED_MARK_SECONDS } });
  }

  /** When the account's claims last changed (ms), if recently. Throws if Redis cannot be asked. */
  async accountChangedAt(sub: string): Promise<number | undefined> {
    const text = await this.redis.get(changedKey(sub));
    const at = text === null ? Number.NaN : Number(text);
    return Number.isFinite(at) ? at : undefined;
  }

  /**
   * Takes this session's refresh lock, waiting for another holder at most `waitMs`. Answers its
   * release and whether it had to wait (then the holder has likely just refreshed: read the record
   * again), or null when the lock stayed taken.
   */
  async lock(cookie: string): Promise<{ release: () => Promise<void>; waited: boolean } | null> {
    const key = lockKey(cookie);
    const token = randomUUID();
    const deadline = Date.now() + this.timing.waitMs;
    let waited = false;
    while ((await this.redis.set(key, token, { NX: true, PX: this.timing.ttlMs })) === null) {
      if (Date.now() >= deadline) return null;
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, this.timing.pollMs));
    }
    return {
      waited,
      // Released by its owner only: a holder whose lock expired must not free the next holder's.
      release: async () => {
        await this.redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
      },
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Keycloak's token endpoint for the browser's public client (tuber-web, PKCE, no secret). Reached at
// the internal KEYCLOAK_URL: Keycloak runs with a fixed public hostname and a dynamic back channel,
// so a refresh there is accepted and the new tokens still carry the public issuer (checked by hand:
// 200, iss http://localhost:8080/auth/realms/tuber).

export interface KeycloakTokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  expires_in: number;
  refresh_expires_in?: number;
}

export type RefreshOutcome =
  | { ok: true; tokens: KeycloakTokens }
  /** Keycloak refused the refresh token itself (invalid_grant: used, revoked, expired, logged out, not ours). */
  | { ok: false; ended: true; reason: string }
  /** Keycloak could not be asked or failed: nothing is known about the token. */
  | { ok: false; ended: false; reason: string };

export interface TokenEndpoint {
  refresh(refreshToken: string): Promise<RefreshOutcome>;
  /** Best effort: never throws. */
  revoke(refreshToken: string): Promise<void>;
}

/** Keycloak's call is bounded well below the refresh lock's life, so a waiting request sees its outcome. */
const KEYCLOAK_TIMEOUT_MS = 4_000;

export function keycloakTokenEndpoint(options: { baseUrl: string; realm: string; clientId: string }): TokenEndpoint {
  const base = `${options.baseUrl.replace(/\/$/, '')}/realms/${encodeURIComponent(options.realm)}/protocol/openid-connect`;
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(KEYCLOAK_TIMEOUT_MS),
  });
  return {
    async refresh(refreshToken) {
      let response: Response;
      let body: Record<string, unknown>;
      try {
        response = await fetch(
          `${base}/token`,
          form({ grant_type: 'refresh_token', client_id: options.clientId, refresh_token: refreshToken }),
        );
        body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      } catch (err) {
        return { ok: false, ended: false, reason: `Keycloak could not be reached: ${err instanceof Error ? err.message : String(err)}` };
      }
      const error = typeof body.error === 'string' ? body.error : '';
      const description = typeof body.error_description === 'string' ? body.error_description : '';
      if (response.ok && typeof body.access_token === 'string' && typeof body.refresh_token === 'string') {
        return {
          ok: true,
          tokens: {
            access_token: body.access_token,
            refresh_token: body.refresh_token,
            id_token: typeof body.id_token === 'string' ? body.id_token : undefined,
            expires_in: typeof body.expires_in === 'number' ? body.expires_in : 0,
            refresh_expires_in: typeof body.refresh_expires_in === 'number' ? body.refresh_expires_in : undefined,
          },
        };
      }
      // A 4xx about the token (invalid_grant, or a malformed one a stranger sent: invalid_request) says
      // this sign-in cannot go on. A complaint about the client is this service's configuration, and
      // a 5xx Keycloak's trouble: neither says anything about the person's sign-in.
      const aboutClient = error === 'invalid_client' || error === 'unauthorized_client' || error === 'unsupported_grant_type';
      const reason = `Keycloak answered ${response.status}${error ? ` ${error}` : ''}${description ? `: ${description}` : ''}`;
      if (response.status >= 400 && response.status < 500 && response.status !== 429 && !aboutClient) {
        return { ok: false, ended: true, reason };
      }
      return { ok: false, ended: false, reason: response.ok ? `${reason} without tokens` : reason };
    },
    async revoke(refreshToken) {
      await fetch(`${base}/revoke`, form({ token: refreshToken, token_type_hint: 'refresh_token', client_id: options.clientId }))
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    },
  };
}

/** The payload of a JWT Keycloak has just issued to this service over its back channel (not verified again here). */
export function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
