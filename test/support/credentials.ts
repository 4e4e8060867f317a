// Credentials of the running servers for tests (docs/adr/0017): the infra scripts generate them into
// $TUBER_STATE/secrets (default <repo>/.run/secrets). Tests set up and inspect as `tuber-test`, a
// user with every right; the per-service users are what the services run with.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = process.env;
const repo = fileURLToPath(new URL('../..', import.meta.url));
const state = env.TUBER_STATE ? (isAbsolute(env.TUBER_STATE) ? env.TUBER_STATE : join(repo, env.TUBER_STATE)) : join(repo, '.run');
const port = (name: string, fallback: number) => Number(env[name] ?? fallback);

export const TEST_USER = 'tuber-test';

/** A generated secret ($TUBER_STATE/secrets/NAME); empty when the servers have not made it. */
export function secret(name: string): string {
  const file = join(state, 'secrets', name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

const userinfo = (user: string, password: string) => `${encodeURIComponent(user)}:${encodeURIComponent(password)}@`;

/** NATS as `user` (a service name or tuber-test). */
export const natsUrl = (user: string = TEST_USER) =>
  `nats://${userinfo(user, secret(`nats-${user}-password`))}127.0.0.1:${port('NATS_PORT', 4222)}`;

/** Redis as `user` (a service name or tuber-test). */
export const redisUrl = (user: string = TEST_USER) =>
  `redis://${userinfo(user, secret(`redis-${user}-password`))}127.0.0.1:${port('REDIS_PORT', 6379)}`;

/** The catalog's read model's own Redis (docs/adr/0061) as `user` (catalog or tuber-test): the same passwords. */
export const readModelRedisUrl = (user: string = TEST_USER) =>
  `redis://${userinfo(user, secret(`redis-${user}-password`))}127.0.0.1:${Number(env.READMODEL_REDIS_PORT || port('REDIS_PORT', 6379) + 1)}`;

/**
 * The MongoDB wire database `db` as `user`. FerretDB 1.x takes credentials by PLAIN only; a real
 * MongoDB (TUBER_INFRA=containers) by SCRAM, with the test user kept in the admin database.
 */
export function mongoUrl(db: string, user: string = TEST_USER): string {
  const mechanism = env.MONGO_AUTH_MECHANISM || 'PLAIN';
  const source = mechanism !== 'PLAIN' && user === TEST_USER ? '&authSource=admin' : '';
  return `mongodb://${userinfo(user, secret(`mongo-${user}-password`))}127.0.0.1:${port('MONGO_PORT', 27017)}/${db}?authMechanism=${mechanism}${source}`;
}
