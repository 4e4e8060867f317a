// Run by the mongo image on its first start (empty volume), as the root user (docs/adr/0017): one
// user per service database, with readWrite on that database only. Passwords from the container's
// environment (docker-compose.yml). On a volume made before this file existed, run it by hand:
//   docker compose exec mongo mongosh -u admin -p "$MONGO_ROOT_PASSWORD" /docker-entrypoint-initdb.d/10-users.js
/* global db */ // mongosh's current database
for (const name of ['profile', 'catalog', 'media', 'orders', 'moderation']) {
  const password = process.env[`MONGO_${name.toUpperCase()}_PASSWORD`];
  if (!password) throw new Error(`MONGO_${name.toUpperCase()}_PASSWORD is not set`);
  const database = db.getSiblingDB(name);
  if (database.getUser(name)) database.updateUser(name, { pwd: password, roles: [{ role: 'readWrite', db: name }] });
  else database.createUser({ user: name, pwd: password, roles: [{ role: 'readWrite', db: name }] });
}
// The tests' user (infra/compose/test-infra.yml only): every right, in the admin database.
if (process.env.MONGO_TUBER_TEST_PASSWORD) {
  const admin = db.getSiblingDB('admin');
  const roles = [{ role: 'root', db: 'admin' }];
  if (admin.getUser('tuber-test')) admin.updateUser('tuber-test', { pwd: process.env.MONGO_TUBER_TEST_PASSWORD, roles });
  else admin.createUser({ user: 'tuber-test', pwd: process.env.MONGO_TUBER_TEST_PASSWORD, roles });
}
