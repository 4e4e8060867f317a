// Puts this machine's generated secrets into Keycloak through its admin REST API, after the realm
// import: the tuber-auth client's secret and the dev test user's password. Idempotent.
// Signs in with the bootstrap admin *service account* (client credentials, no password grant).
const env = process.env;
const base = env.KC_URL; // e.g. http://127.0.0.1:8180/auth
const realm = env.KC_REALM ?? 'tuber';

async function call(method, path, { token, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(json)];
  if (form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(form)];
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const { access_token: token } = await call('POST', '/realms/master/protocol/openid-connect/token', {
  form: { grant_type: 'client_credentials', client_id: env.KC_ADMIN_CLIENT_ID, client_secret: env.KC_ADMIN_CLIENT_SECRET },
});
const admin = `/admin/realms/${realm}`;

const [client] = await call('GET', `${admin}/clients?clientId=tuber-auth`, { token });
if (!client) throw new Error(`realm ${realm} has no client tuber-auth`);
const current = await call('GET', `${admin}/clients/${client.id}/client-secret`, { token });
if (current?.value !== env.AUTH_CLIENT_SECRET) {
  await call('PUT', `${admin}/clients/${client.id}`, { token, json: { ...client, secret: env.AUTH_CLIENT_SECRET } });
  console.log('tuber-auth client secret set from the secrets directory');
}

const [user] = await call('GET', `${admin}/users?exact=true&username=${encodeURIComponent(env.TEST_USER)}`, { token });
if (user) {
  await call('PUT', `${admin}/users/${user.id}/reset-password`, { token, json: { type: 'password', value: env.TEST_USER_PASSWORD, temporary: false } });
}
