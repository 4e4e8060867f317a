// Test accounts in the real Keycloak realm, made through the admin API with the auth service's
// own client, then signed in through the real code + PKCE flow.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import { signInWithPassword } from './keycloak.js';

const keycloakUrl = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`;

async function admin() {
  const client = new KcAdminClient({ baseUrl: keycloakUrl, realmName: 'tuber' });
  await client.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  return client;
}

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  accessToken: string;
}

export interface AccountOptions {
  role: 'buyer' | 'farmer';
  verified?: boolean;
  businessName?: string;
  location?: string;
  tuber?: string[];
  /** Also the realm role `moderator` (issue 26): the moderation desk's. */
  moderator?: boolean;
}

export async function createAccount(options: AccountOptions): Promise<Omit<TestAccount, 'accessToken'>> {
  const kc = await admin();
  const email = `${options.role}-${randomUUID().slice(0, 8)}@test.tuber.local`;
  const password = `pw-${randomUUID()}`;
  const attributes: Record<string, string[]> = { phone: ['+2348030000000'], user_type: [options.role], pending_profile: ['true'] };
  if (options.role === 'farmer') {
    attributes.business_name = [options.businessName ?? 'Test Farms'];
    attributes.location = [options.location ?? 'Ibadan'];
    attributes.tuber = options.tuber ?? ['yam', 'cassava'];
  }
  const { id } = await kc.users.create({
    username: email,
    email,
    firstName: 'Test',
    lastName: options.role === 'farmer' ? 'Farmer' : 'Buyer',
    enabled: true,
    emailVerified: options.verified ?? true,
    attributes,
    credentials: [{ type: 'password', value: password, temporary: false }],
  });
  const names = [options.role, ...(options.moderator ? ['moderator'] : [])];
  const roles = await Promise.all(names.map((name) => kc.roles.findOneByName({ name })));
  await kc.users.addRealmRoleMappings({ id, roles: roles.map((role) => ({ id: role!.id!, name: role!.name! })) });
  return { id, email, password };
}

/** A verified account, signed in. */
export async function signedInAccount(options: AccountOptions): Promise<TestAccount> {
  const account = await createAccount(options);
  const { accessToken } = await signInWithPassword(account.email, account.password);
  return { ...account, accessToken };
}

export async function keycloakUser(id: string) {
  return (await admin()).users.findOne({ id });
}

export async function deleteAccount(id: string) {
  await (await admin()).users.del({ id }).catch(() => undefined);
}
