import { createServiceApp, useAuth, useEventBus, useRedis, type ServiceApp } from '@tuber/kit';
import type { AuthConfig } from './config.js';
import { oidcRoutes } from './routes/oidc.js';

export async function buildApp(config: AuthConfig): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'auth', logLevel: config.LOG_LEVEL, description: 'Sign-up, verification and password reset in front of Keycloak' });
  await useAuth(app, config);
  await useRedis(app, config.REDIS_URL);
  await useEventBus(app, config.NATS_URL, 'auth');
  oidcRoutes(app, config);
  return app;
}
