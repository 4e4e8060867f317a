// Suspending and restoring accounts in Keycloak (issue 26, docs/adr/0071), from this service only, never from a
// browser: the `tuber-moderation` client's service account may enable and disable users and end their sessions
// (realm-management manage-users, view-users, query-users). A disabled account cannot sign in and its refresh
// tokens stop working; the sessions it had are ended, and their ids are handed back so that the access tokens
// still in flight are refused at once (the kit's ended-sign-in check, docs/adr/0056).
import KcAdminClient from '@keycloak/keycloak-admin-client';

export interface AccountSwitch {
  /** Disables the account and ends its sessions; resolves with the ids of the sessions that were open. */
  suspend(userId: string): Promise<string[]>;
  enable(userId: string): Promise<void>;
  /** The account's display name for the audit log's readers ("Ada O."), or the id when unknown. */
  exists(userId: string): Promise<boolean>;
}

/** Keycloak does not answer, or refused this client. */
export class AccountsUnavailable extends Error {
  override readonly name = 'AccountsUnavailable';
}

const TOKEN_REFRESH_MS = 60_000;

export function keycloakAccounts(options: { baseUrl: string; realm: string; clientSecret: string }): AccountSwitch {
  const admin = new KcAdminClient({ baseUrl: options.baseUrl, realmName: options.realm, timeout: 5_000 });
  let authenticatedAt = 0;
  async function client() {
    if (!options.clientSecret) throw new AccountsUnavailable('KEYCLOAK_MODERATION_CLIENT_SECRET is not set');
    if (Date.now() - authenticatedAt > TOKEN_REFRESH_MS) {
      try {
        await admin.auth({ grantType: 'client_credentials', clientId: 'tuber-moderation', clientSecret: options.clientSecret });
      } catch (err) {
        throw new AccountsUnavailable(`Keycloak refused or did not answer the moderation client: ${(err as Error).message}`);
      }
      authenticatedAt = Date.now();
    }
    return admin;
  }
  const guard = async <T>(work: (kc: KcAdminClient) => Promise<T>): Promise<T> => {
    const kc = await client();
    try {
      return await work(kc);
    } catch (err) {
      const status = (err as { response?: { status?: number } }).response?.status;
      if (status === 404) throw err;
      throw new AccountsUnavailable(`Keycloak admin call failed: ${status ?? ''} ${(err as Error).message}`);
    }
  };
  return {
    suspend: (userId) =>
      guard(async (kc) => {
        await kc.users.update({ id: userId }, { enabled: false });
        const sessions = await kc.users.listSessions({ id: userId });
        await kc.users.logout({ id: userId });
        return sessions.map((session) => session.id).filter((sid): sid is string => typeof sid === 'string' && sid !== '');
      }),
    enable: (userId) =>
      guard(async (kc) => {
        await kc.users.update({ id: userId }, { enabled: true });
      }),
    exists: (userId) =>
      guard(async (kc) => {
        const user = await kc.users.findOne({ id: userId });
        return Boolean(user?.id);
      }),
  };
}
