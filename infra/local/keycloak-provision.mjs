// Provisions the local Keycloak through its admin REST API, on the internal address only
// (docs/adr/0018). Idempotent; keycloak.sh runs it after every start.
//  1. Signs in as the named admin client (tuber-ops, master realm, client credentials). On a fresh
//     database that client does not exist yet: the one-off bootstrap client keycloak.sh started
//     Keycloak with is used once to create it, the named human admin (tuber-admin) and master's
//     hardening, and is then deleted together with any other temporary bootstrap admin.
//  2. Master realm: brute-force detection on, its pages and tokens on the internal admin URL.
//  3. Realm tuber: created from infra/keycloak/tuber-realm.json when missing, ${NAME} and
//     ${NAME:default} placeholders filled from this environment as Keycloak's own import does.
//     offline_access taken out of its default roles (see withoutOfflineAccess).
//  4. The tuber-auth client's secret set to the one in the secrets directory; the realm's languages
//     (internationalization, supported and default locale) as the realm file says, also on a realm
//     created before they were there (docs/adr/0044).
//  5. What the realm file added after a realm was made (compose keeps its realm): its realm roles
//     that are missing (e.g. `moderator`) created; the moderation service's confidential client
//     tuber-moderation created from the realm file when missing, its service account given the
//     realm-management roles the file lists, and its secret set to MODERATION_CLIENT_SECRET.
//  6. With TEST_OVERLAY set: the overlay's users (the dev/test account) partially imported,
//     existing ones skipped, and the test user's password set from the secrets directory.
// Exit status 3: neither the named admin nor the bootstrap client could sign in (keycloak.sh then
// starts the local database afresh).
import { readFileSync } from 'node:fs';

const env = process.env;
const base = env.KC_URL; // e.g. http://127.0.0.1:8180/auth
const realm = env.KC_REALM ?? 'tuber';
const OPS_CLIENT = 'tuber-ops';
const OPS_USER = 'tuber-admin';

class HttpError extends Error {
  constructor(method, path, status, text) {
    super(`${method} ${path} answered ${status}: ${text.slice(0, 300)}`);
    this.status = status;
  }
}

async function call(method, path, { token, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(json)];
  if (form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(form)];
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  if (!response.ok) throw new HttpError(method, path, response.status, text);
  return text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
}

async function clientToken(clientId, secret) {
  if (!clientId || !secret) return null;
  try {
    const form = { grant_type: 'client_credentials', client_id: clientId, client_secret: secret };
    return (await call('POST', '/realms/master/protocol/openid-connect/token', { form })).access_token;
  } catch (error) {
    if (error instanceof HttpError && (error.status === 400 || error.status === 401)) return null;
    throw error;
  }
}

/** Fills ${NAME} and ${NAME:default} from the environment; unknown names (Keycloak's message keys) stay. */
function fillPlaceholders(text, values = env) {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}/g, (whole, name, fallback) => values[name] ?? fallback ?? whole);
}

const readJson = (file) => JSON.parse(fillPlaceholders(readFileSync(file, 'utf8')));

async function ensureNamedAdmins(token) {
  const master = '/admin/realms/master';
  const adminRole = await call('GET', `${master}/roles/admin`, { token });
  let [ops] = await call('GET', `${master}/clients?clientId=${OPS_CLIENT}`, { token });
  if (!ops) {
    await call('POST', `${master}/clients`, {
      token,
      json: {
        clientId: OPS_CLIENT,
        name: 'Tuber Market operations (provisioning)',
        enabled: true,
        publicClient: false,
        clientAuthenticatorType: 'client-secret',
        secret: env.OPS_CLIENT_SECRET,
        standardFlowEnabled: false,
        implicitFlowEnabled: false,
        directAccessGrantsEnabled: false,
        serviceAccountsEnabled: true,
      },
    });
    [ops] = await call('GET', `${master}/clients?clientId=${OPS_CLIENT}`, { token });
    console.log(`named admin client ${OPS_CLIENT} created`);
  } else {
    await call('PUT', `${master}/clients/${ops.id}`, { token, json: { ...ops, secret: env.OPS_CLIENT_SECRET } });
  }
  const serviceUser = await call('GET', `${master}/clients/${ops.id}/service-account-user`, { token });
  await call('POST', `${master}/users/${serviceUser.id}/role-mappings/realm`, { token, json: [adminRole] });

  if (env.ADMIN_USER_PASSWORD) {
    let [person] = await call('GET', `${master}/users?exact=true&username=${OPS_USER}`, { token });
    if (!person) {
      await call('POST', `${master}/users`, {
        token,
        json: {
          username: OPS_USER,
          enabled: true,
          firstName: 'Tuber',
          lastName: 'Administrator',
          email: 'admin@tuber.local',
          emailVerified: true,
        },
      });
      [person] = await call('GET', `${master}/users?exact=true&username=${OPS_USER}`, { token });
      console.log(`named admin user ${OPS_USER} created`);
    }
    await call('PUT', `${master}/users/${person.id}/reset-password`, {
      token,
      json: { type: 'password', value: env.ADMIN_USER_PASSWORD, temporary: false },
    });
    await call('POST', `${master}/users/${person.id}/role-mappings/realm`, { token, json: [adminRole] });
  }
}

async function hardenMaster(token) {
  const current = await call('GET', '/admin/realms/master', { token });
  const attributes = { ...(current.attributes ?? {}) };
  // The master realm's login pages, issuer and console links on the internal admin URL: the
  // gateway never serves /auth/realms/master/ (docs/adr/0018).
  if (env.ADMIN_URL) attributes.frontendUrl = env.ADMIN_URL;
  await call('PUT', '/admin/realms/master', {
    token,
    json: {
      bruteForceProtected: true,
      permanentLockout: false,
      failureFactor: 5,
      waitIncrementSeconds: 60,
      maxFailureWaitSeconds: 900,
      quickLoginCheckMilliSeconds: 1000,
      minimumQuickLoginWaitSeconds: 60,
      maxDeltaTimeSeconds: 43200,
      passwordPolicy: 'length(12) and maxLength(128) and notUsername(undefined)',
      adminEventsEnabled: true,
      adminEventsDetailsEnabled: true,
      attributes,
    },
  });
}

async function removeBootstrapAdmins(token) {
  const master = '/admin/realms/master';
  for (const client of await call('GET', `${master}/clients?first=0&max=200`, { token })) {
    const temporary = client.attributes?.is_temporary_admin === 'true';
    if (
      client.clientId !== OPS_CLIENT &&
      (temporary || client.clientId === env.BOOTSTRAP_CLIENT_ID || client.clientId === 'tuber-local-admin')
    ) {
      await call('DELETE', `${master}/clients/${client.id}`, { token });
      console.log(`bootstrap admin client ${client.clientId} removed`);
    }
  }
  for (const user of await call('GET', `${master}/users?first=0&max=200&briefRepresentation=false`, { token })) {
    const temporary = user.attributes?.is_temporary_admin?.includes('true');
    if (user.username !== OPS_USER && !user.serviceAccountClientId && (temporary || user.username === 'admin')) {
      await call('DELETE', `${master}/users/${user.id}`, { token });
      console.log(`bootstrap admin user ${user.username} removed`);
    }
  }
}

/** True when the realm was created now. */
async function ensureRealm(token) {
  try {
    await call('GET', `/admin/realms/${realm}`, { token });
    return false;
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 404)) throw error;
    await call('POST', '/admin/realms', { token, json: readJson(env.REALM_FILE) });
    console.log(`realm ${realm} imported from ${env.REALM_FILE}`);
    return true;
  }
}

// Keycloak's import always adds offline_access to the realm's default role (it does so unless the
// file also lists every client scope); no account of this realm may hold offline tokens, and new
// clients do not get the scope either.
async function withoutOfflineAccess(token) {
  const admin = `/admin/realms/${realm}`;
  const composites = await call('GET', `${admin}/roles/default-roles-${realm}/composites/realm`, { token });
  const offline = composites.filter((role) => role.name === 'offline_access');
  if (offline.length) {
    await call('DELETE', `${admin}/roles/default-roles-${realm}/composites`, { token, json: offline });
    console.log('offline_access removed from the default roles');
  }
  for (const scope of await call('GET', `${admin}/default-optional-client-scopes`, { token })) {
    if (scope.name === 'offline_access') await call('DELETE', `${admin}/default-optional-client-scopes/${scope.id}`, { token });
  }
}

async function syncAuthClientSecret(token) {
  const admin = `/admin/realms/${realm}`;
  const [client] = await call('GET', `${admin}/clients?clientId=tuber-auth`, { token });
  if (!client) throw new Error(`realm ${realm} has no client tuber-auth`);
  const current = await call('GET', `${admin}/clients/${client.id}/client-secret`, { token });
  if (current?.value !== env.AUTH_CLIENT_SECRET) {
    await call('PUT', `${admin}/clients/${client.id}`, { token, json: { ...client, secret: env.AUTH_CLIENT_SECRET } });
    console.log('tuber-auth client secret set from the secrets directory');
  }
}

// Realm roles the realm file has and the realm does not (a realm made before the file had them, e.g.
// `moderator`): created with the file's description. Existing roles are left as they are.
async function ensureRealmRoles(token) {
  const admin = `/admin/realms/${realm}`;
  const have = new Set((await call('GET', `${admin}/roles?first=0&max=500`, { token })).map((role) => role.name));
  for (const role of readJson(env.REALM_FILE).roles?.realm ?? []) {
    if (have.has(role.name) || role.composite) continue;
    await call('POST', `${admin}/roles`, { token, json: { name: role.name, description: role.description } });
    console.log(`realm role ${role.name} created`);
  }
}

// A confidential service-account client of the realm file (tuber-moderation): created as the file
// describes when the realm predates it, its secret set to `secret` (the secrets directory's), and its
// service account given the client roles the file's service-account user lists (only added, never removed).
async function ensureServiceClient(token, clientId, secret) {
  if (!secret) throw new Error(`no secret given for the ${clientId} client`);
  const admin = `/admin/realms/${realm}`;
  const wanted = readJson(env.REALM_FILE);
  const definition = wanted.clients.find((client) => client.clientId === clientId);
  if (!definition) throw new Error(`${env.REALM_FILE} has no client ${clientId}`);
  let [client] = await call('GET', `${admin}/clients?clientId=${clientId}`, { token });
  if (!client) {
    await call('POST', `${admin}/clients`, { token, json: { ...definition, secret } });
    [client] = await call('GET', `${admin}/clients?clientId=${clientId}`, { token });
    console.log(`client ${clientId} created`);
  } else {
    const current = await call('GET', `${admin}/clients/${client.id}/client-secret`, { token });
    if (current?.value !== secret) {
      await call('PUT', `${admin}/clients/${client.id}`, { token, json: { ...client, secret } });
      console.log(`${clientId} client secret set from the secrets directory`);
    }
  }
  const account = (wanted.users ?? []).find((user) => user.serviceAccountClientId === clientId);
  if (!account?.clientRoles) return;
  const serviceUser = await call('GET', `${admin}/clients/${client.id}/service-account-user`, { token });
  for (const [roleClientId, names] of Object.entries(account.clientRoles)) {
    const [roleClient] = await call('GET', `${admin}/clients?clientId=${roleClientId}`, { token });
    if (!roleClient) throw new Error(`realm ${realm} has no client ${roleClientId}`);
    const mappings = `${admin}/users/${serviceUser.id}/role-mappings/clients/${roleClient.id}`;
    const held = new Set((await call('GET', mappings, { token })).map((role) => role.name));
    const missing = [];
    for (const name of names.filter((n) => !held.has(n)))
      missing.push(await call('GET', `${admin}/clients/${roleClient.id}/roles/${name}`, { token }));
    if (!missing.length) continue;
    await call('POST', mappings, { token, json: missing });
    console.log(`${clientId} service account given ${roleClientId} roles ${missing.map((role) => role.name).join(', ')}`);
  }
}

// The languages of the login pages and of Keycloak's e-mails (issue 13): a realm made before the realm file
// had them (compose keeps its realm) gets them too; nothing is written when they already match.
async function syncLanguages(token) {
  const wanted = readJson(env.REALM_FILE);
  const fields = ['internationalizationEnabled', 'supportedLocales', 'defaultLocale'];
  const current = await call('GET', `/admin/realms/${realm}`, { token });
  const norm = (value) => JSON.stringify(Array.isArray(value) ? [...value].sort() : (value ?? null));
  const same = (name) => norm(current[name]) === norm(wanted[name]);
  if (fields.every(same)) return;
  await call('PUT', `/admin/realms/${realm}`, { token, json: Object.fromEntries(fields.map((name) => [name, wanted[name]])) });
  console.log(`realm ${realm} languages set: ${wanted.supportedLocales?.join(', ')} (default ${wanted.defaultLocale})`);
}

async function applyTestOverlay(token) {
  const admin = `/admin/realms/${realm}`;
  const overlay = readJson(env.TEST_OVERLAY);
  await call('POST', `${admin}/partialImport`, { token, json: overlay });
  for (const { username } of overlay.users ?? []) {
    const [user] = await call('GET', `${admin}/users?exact=true&username=${encodeURIComponent(username)}`, { token });
    await call('PUT', `${admin}/users/${user.id}/reset-password`, {
      token,
      json: { type: 'password', value: env.TUBER_TEST_USER_PASSWORD, temporary: false },
    });
  }
  console.log(`test overlay ${env.TEST_OVERLAY} applied`);
}

let token = await clientToken(OPS_CLIENT, env.OPS_CLIENT_SECRET);
if (!token) {
  const bootstrap = await clientToken(env.BOOTSTRAP_CLIENT_ID, env.BOOTSTRAP_CLIENT_SECRET);
  if (!bootstrap) {
    console.error(`neither ${OPS_CLIENT} nor the bootstrap client could sign in to the master realm`);
    process.exit(3);
  }
  await ensureNamedAdmins(bootstrap);
  token = await clientToken(OPS_CLIENT, env.OPS_CLIENT_SECRET);
  if (!token) throw new Error(`${OPS_CLIENT} was created but cannot sign in`);
} else {
  await ensureNamedAdmins(token);
}
await removeBootstrapAdmins(token);
if (await ensureRealm(token)) token = await clientToken(OPS_CLIENT, env.OPS_CLIENT_SECRET); // now with the new realm's admin roles
await withoutOfflineAccess(token);
await syncAuthClientSecret(token);
await syncLanguages(token);
await ensureRealmRoles(token);
await ensureServiceClient(token, 'tuber-moderation', env.MODERATION_CLIENT_SECRET);
if (env.TEST_OVERLAY) await applyTestOverlay(token);
// Last: moving master's frontend URL changes the issuer this run's token was checked against.
await hardenMaster(token);
