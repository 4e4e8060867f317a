// The accounts directory: Keycloak's admin REST API, reached with the auth service's own
// confidential client (service account limited to user management).
import KcAdminClient from '@keycloak/keycloak-admin-client';

export interface NewAccount {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  role: 'buyer' | 'farmer';
  attributes: Record<string, string[]>;
}

export interface Account {
  id: string;
  email: string;
  emailVerified: boolean;
  attributes: Record<string, string[]>;
}

export class EmailInUse extends Error {}
export class PasswordRejected extends Error {}

/** One entry of Keycloak's user events or admin events, reduced to what the auth service reads. */
export interface RealmEvent {
  /** Milliseconds since the epoch. */
  time: number;
  /** User events: the type (DELETE_ACCOUNT …); admin events: the operation (UPDATE, DELETE). */
  type: string;
  /** The account the event is about (user events: userId; admin events: from `users/<id>`). */
  userId?: string;
  /** Identifies the event among those of the same millisecond. */
  key: string;
}

export interface EventPage {
  /** yyyy-MM-dd (UTC): Keycloak returns events from the start of that day. */
  dateFrom: string;
  first: number;
  max: number;
}

/** Keycloak's stored events (realm events and admin events must be enabled, and the client needs view-events). */
export interface RealmEvents {
  /** Newest first, as Keycloak lists them. */
  userEvents(page: EventPage, types: readonly string[]): Promise<RealmEvent[]>;
  /** Newest first; only events on users (resource type USER) of the given operations. */
  adminEvents(page: EventPage, operations: readonly string[]): Promise<RealmEvent[]>;
}

export interface AccountDirectory {
  create(account: NewAccount): Promise<string>;
  findByEmail(email: string): Promise<Account | undefined>;
  findById(id: string): Promise<Account | undefined>;
  sendVerifyEmail(id: string): Promise<void>;
  setPassword(id: string, password: string): Promise<void>;
  endSessions(id: string): Promise<void>;
  /** The ids of the account's open Keycloak sessions: the `sid` their access tokens carry. */
  sessionIds(id: string): Promise<string[]>;
  /**
   * Forgets the account's failed sign-ins (Keycloak's brute-force record), ending a temporary lockout.
   * Called once the owner proved themselves by the e-mailed reset link (docs/adr/0062).
   */
  clearFailedSignIns(id: string): Promise<void>;
  setAttribute(id: string, name: string, values: string[]): Promise<void>;
}

export interface KeycloakDirectoryOptions {
  baseUrl: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  /** Where the verification link sends the user back to (the product's login). */
  webClientId: string;
  afterVerifyUrl: string;
}

const TOKEN_REFRESH_MS = 60_000;

export function keycloakDirectory(options: KeycloakDirectoryOptions): AccountDirectory & RealmEvents & { check(): Promise<void> } {
  const admin = new KcAdminClient({ baseUrl: options.baseUrl, realmName: options.realm, timeout: 5_000 });
  let authenticatedAt = 0;

  async function client() {
    if (Date.now() - authenticatedAt > TOKEN_REFRESH_MS) {
      await admin.auth({ grantType: 'client_credentials', clientId: options.clientId, clientSecret: options.clientSecret });
      authenticatedAt = Date.now();
    }
    return admin;
  }

  /** A GET on the realm's admin API that the admin client has no typed call for (repeated query parameters). */
  async function getJson(path: string): Promise<unknown> {
    const kc = await client();
    const token = await kc.getAccessToken();
    const url = `${options.baseUrl.replace(/\/$/, '')}/admin/realms/${encodeURIComponent(options.realm)}/${path}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`Keycloak answered ${response.status} to GET ${path.split('?')[0]}`);
    return response.json();
  }

  const toAccount = (user: { id?: string; email?: string; emailVerified?: boolean; attributes?: Record<string, unknown> }): Account => ({
    id: user.id ?? '',
    email: user.email ?? '',
    emailVerified: user.emailVerified === true,
    attributes: (user.attributes ?? {}) as Record<string, string[]>,
  });

  return {
    async create(account) {
      const kc = await client();
      let id: string;
      try {
        ({ id } = await kc.users.create({
          username: account.email,
          email: account.email,
          firstName: account.firstName,
          lastName: account.lastName,
          enabled: true,
          emailVerified: false,
          attributes: account.attributes,
          credentials: [{ type: 'password', value: account.password, temporary: false }],
        }));
      } catch (err) {
        const status = (err as { response?: { status?: number } }).response?.status;
        const message = err instanceof Error ? err.message : String(err);
        if (status === 409) throw new EmailInUse(message);
        if (status === 400 && /password/i.test(message)) throw new PasswordRejected(message);
        throw err;
      }
      try {
        const role = await kc.roles.findOneByName({ name: account.role });
        if (!role?.id || !role.name) throw new Error(`realm role ${account.role} is missing`);
        await kc.users.addRealmRoleMappings({ id, roles: [{ id: role.id, name: role.name }] });
      } catch (err) {
        // Without its role the account is unusable: remove it so the person can simply retry.
        await kc.users.del({ id }).catch(() => undefined);
        throw err;
      }
      return id;
    },
    async findByEmail(email) {
      const kc = await client();
      const [user] = await kc.users.find({ email, exact: true, max: 1 });
      return user ? toAccount(user) : undefined;
    },
    async findById(id) {
      const kc = await client();
      const user = await kc.users.findOne({ id, userProfileMetadata: false });
      return user ? toAccount(user) : undefined;
    },
    async sendVerifyEmail(id) {
      const kc = await client();
      await kc.users.sendVerifyEmail({ id, clientId: options.webClientId, redirectUri: options.afterVerifyUrl });
    },
    async setPassword(id, password) {
      const kc = await client();
      try {
        await kc.users.resetPassword({ id, credential: { type: 'password', value: password, temporary: false } });
      } catch (err) {
        const status = (err as { response?: { status?: number } }).response?.status;
        if (status === 400) throw new PasswordRejected(err instanceof Error ? err.message : String(err));
        throw err;
      }
    },
    async endSessions(id) {
      const kc = await client();
      await kc.users.logout({ id });
    },
    async sessionIds(id) {
      const kc = await client();
      const sessions = await kc.users.listSessions({ id });
      return sessions.map((session) => session.id).filter((sid): sid is string => typeof sid === 'string' && sid !== '');
    },
    async clearFailedSignIns(id) {
      const kc = await client();
      await kc.attackDetection.del({ id });
    },
    async setAttribute(id, name, values) {
      const kc = await client();
      const user = await kc.users.findOne({ id });
      if (!user) return;
      // The whole representation goes back: Keycloak replaces attributes wholesale on update.
      await kc.users.update({ id }, { ...user, attributes: { ...(user.attributes ?? {}), [name]: values } });
    },
    async check() {
      await client();
    },
    async userEvents(page, types) {
      const query = new URLSearchParams({ dateFrom: page.dateFrom, first: String(page.first), max: String(page.max) });
      for (const type of types) query.append('type', type);
      const events = (await getJson(`events?${query}`)) as { time?: number; type?: string; userId?: string; id?: string }[];
      return events.map((event) => ({
        time: event.time ?? 0,
        type: event.type ?? '',
        userId: event.userId || undefined,
        key: event.id ?? `${event.type}:${event.userId}`,
      }));
    },
    async adminEvents(page, operations) {
      const query = new URLSearchParams({ dateFrom: page.dateFrom, first: String(page.first), max: String(page.max) });
      query.append('resourceTypes', 'USER');
      for (const operation of operations) query.append('operationTypes', operation);
      const events = (await getJson(`admin-events?${query}`)) as {
        time?: number;
        operationType?: string;
        resourcePath?: string;
        id?: string;
      }[];
      return events.map((event) => ({
        time: event.time ?? 0,
        type: event.operationType ?? '',
        // "users/<id>" is the account itself; deeper paths (role mappings, credentials …) are left alone.
        userId: /^users\/([^/]+)$/.exec(event.resourcePath ?? '')?.[1],
        key: event.id ?? `${event.operationType}:${event.resourcePath}`,
      }));
    },
  };
}
