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

export interface AccountDirectory {
  create(account: NewAccount): Promise<string>;
  findByEmail(email: string): Promise<Account | undefined>;
  findById(id: string): Promise<Account | undefined>;
  sendVerifyEmail(id: string): Promise<void>;
  setPassword(id: string, password: string): Promise<void>;
  endSessions(id: string): Promise<void>;
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

export function keycloakDirectory(options: KeycloakDirectoryOptions): AccountDirectory & { check(): Promise<void> } {
  const admin = new KcAdminClient({ baseUrl: options.baseUrl, realmName: options.realm, timeout: 5_000 });
  let authenticatedAt = 0;

  async function client() {
    if (Date.now() - authenticatedAt > TOKEN_REFRESH_MS) {
      await admin.auth({ grantType: 'client_credentials', clientId: options.clientId, clientSecret: options.clientSecret });
      authenticatedAt = Date.now();
    }
    return admin;
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
  };
}
