// Logout ends access (issue 24): a sign-in's access tokens carry its Keycloak session id (`sid`). When the
// sign-in ends (the app's logout, or Keycloak's LOGOUT event that the auth service relays), the auth
// service records the sid here, and every service's `authenticate` refuses its tokens from then on, not
// when they expire (up to 5 minutes later). One Redis EXISTS per authenticated request, no local cache, so
// the refusal holds on every replica at once; measured against bench P5 (docs/adr/0056).
//   auth:revoked-sid:<sid>   "1", kept for REVOKED_SESSION_TTL_SECONDS: longer than any access token lives
import type { RedisClient } from './stores.js';

export const REVOKED_SESSION_PREFIX = 'auth:revoked-sid:';
/** The realm's access tokens live 300 s; kept three times that, for clock skew and a late relay. */
export const REVOKED_SESSION_TTL_SECONDS = 900;

export class RevokedSessions {
  constructor(private readonly redis: RedisClient) {}

  /** Records that sign-in `sid` has ended; its tokens are refused from the next request on. */
  async revoke(sid: string): Promise<void> {
    await this.redis.set(`${REVOKED_SESSION_PREFIX}${sid}`, '1', { EX: REVOKED_SESSION_TTL_SECONDS });
  }

  async isRevoked(sid: string): Promise<boolean> {
    return (await this.redis.exists(`${REVOKED_SESSION_PREFIX}${sid}`)) === 1;
  }
}
