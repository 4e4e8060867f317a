// Attaches a service's dependencies to its app: each one connects at build time, reports to
// /ready under its own name, and is closed when the app closes (after in-flight requests).
import { RevokedSessions } from './revoked-sessions.js';
import type { Connection } from 'mongoose';
import type { ServiceApp } from './app.js';
import { EventBus } from './events.js';
import { auth } from './plugins/auth.js';
import { closeRedis, connectMongo, connectRedis, pingMongo, type RedisClient } from './stores.js';

export async function useMongo(app: ServiceApp, url: string): Promise<Connection> {
  const connection = await connectMongo(url);
  app.readiness.add('mongodb', () => pingMongo(connection));
  app.addHook('onClose', async () => connection.close());
  return connection;
}

/** A Redis client (node-redis) for the app: `redis` in /ready, closed when the app closes. */
export async function useRedis(app: ServiceApp, url: string): Promise<RedisClient> {
  const redis = await connectRedis(url);
  app.readiness.add('redis', async () => {
    await redis.ping();
  });
  app.addHook('onClose', async () => closeRedis(redis));
  return redis;
}

export async function useEventBus(app: ServiceApp, url: string, clientName: string): Promise<EventBus> {
  const bus = await EventBus.connect(url, clientName, app.log);
  app.readiness.add('nats', () => bus.check());
  app.addHook('onClose', async () => bus.close());
  return bus;
}

/** Readiness of an HTTP dependency (Keycloak, MinIO health endpoints). */
export function httpCheck(url: string): () => Promise<void> {
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  };
}

/** Token verification against the configured Keycloak realm; Keycloak also joins /ready. */
export async function useAuth(
  app: ServiceApp,
  config: { KEYCLOAK_URL: string; KEYCLOAK_REALM: string; OIDC_ISSUER: string; OIDC_AUDIENCE: string },
): Promise<void> {
  await app.register(auth, {
    keycloakUrl: config.KEYCLOAK_URL,
    realm: config.KEYCLOAK_REALM,
    issuer: config.OIDC_ISSUER,
    audience: config.OIDC_AUDIENCE,
  });
  // Ready once the realm's keys are in memory: tokens are then checked without Keycloak, so its
  // outage leaves signed-in users working (issue 10, R5); before that, not ready (docs/adr/0027).
  app.readiness.add('keycloak', () => app.realmKeys.ready());
}

/**
 * Refuse the tokens of ended sign-ins (logout) on every authenticated route of this service, from the
 * revoked-session ids the auth service records in Redis (issue 24, docs/adr/0056). Call after useAuth.
 */
export function useSessionRevocation(app: ServiceApp, redis: RedisClient): RevokedSessions {
  const revoked = new RevokedSessions(redis);
  app.decorate('revokedSessions', revoked);
  // Not ready while the records cannot be read: a Redis user without the right (NOPERM) would otherwise
  // take every ended sign-in's token, quietly (found by test/security/logout.test.ts).
  app.readiness.add('ended-sign-ins', async () => {
    await revoked.checkDirect('readiness-probe');
  });
  app.addHook('onClose', async () => {
    await revoked.close();
  });
  return revoked;
}
