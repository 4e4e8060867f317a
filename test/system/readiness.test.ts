// Every service is ready with its dependencies up, answers 503 naming a dependency that is
// stopped, and becomes ready again by itself when the dependency comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp as buildAuth } from '../../services/auth/src/app.js';
import { AuthConfig } from '../../services/auth/src/config.js';
import { buildApp as buildProfile } from '../../services/profile/src/app.js';
import { ProfileConfig } from '../../services/profile/src/config.js';
import { buildApp as buildCatalog } from '../../services/catalog/src/app.js';
import { CatalogConfig } from '../../services/catalog/src/config.js';
import { buildApp as buildMedia } from '../../services/media/src/app.js';
import { MediaConfig } from '../../services/media/src/config.js';
import { buildApp as buildNutrition } from '../../services/nutrition/src/app.js';
import { NutritionConfig } from '../../services/nutrition/src/config.js';
import { buildApp as buildOrders } from '../../services/orders/src/app.js';
import { OrdersConfig } from '../../services/orders/src/config.js';
import { buildApp as buildModeration } from '../../services/moderation/src/app.js';
import { ModerationConfig } from '../../services/moderation/src/config.js';
import { serviceEnv } from '../support/env.js';

const apps: Record<string, ServiceApp> = {};

beforeAll(async () => {
  apps.auth = await buildAuth(loadConfig(AuthConfig, serviceEnv('auth')));
  apps.profile = await buildProfile(loadConfig(ProfileConfig, serviceEnv('profile')));
  apps.catalog = await buildCatalog(loadConfig(CatalogConfig, serviceEnv('catalog')));
  apps.media = await buildMedia(loadConfig(MediaConfig, serviceEnv('media')));
  apps.nutrition = await buildNutrition(loadConfig(NutritionConfig, serviceEnv('nutrition')));
  apps.orders = await buildOrders(loadConfig(OrdersConfig, serviceEnv('orders')));
  apps.moderation = await buildModeration(loadConfig(ModerationConfig, serviceEnv('moderation')));
});

afterAll(async () => {
  await Promise.all(Object.values(apps).map((app) => app.close()));
});

const server = (name: string, action: 'start' | 'stop') =>
  execFileSync('bash', [`infra/local/${name}.sh`, action], { stdio: 'pipe', timeout: 90_000 });

async function ready(service: string) {
  const response = await apps[service]!.inject('/ready');
  return { status: response.statusCode, body: response.json() as { message?: string; checks: Record<string, { ok: boolean }> } };
}

async function eventually(service: string, status: number, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const answer = await ready(service);
    if (answer.status === status || Date.now() - started > timeoutMs) return answer;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const dependants: Record<string, { server: string; services: string[] }> = {
  redis: { server: 'redis', services: ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation'] },
  nats: { server: 'nats', services: ['auth', 'profile', 'catalog', 'orders', 'moderation'] },
  mongodb: { server: 'ferretdb', services: ['profile', 'catalog', 'media', 'orders', 'moderation'] },
  minio: { server: 'minio', services: ['media'] },
};

describe('readiness of every service', () => {
  it('is 200 for all seven with every dependency up', async () => {
    for (const service of Object.keys(apps)) {
      const answer = await ready(service);
      expect({ service, ...answer }).toMatchObject({ service, status: 200 });
    }
  });

  it.each(Object.entries(dependants))(
    'is 503 naming %s while it is stopped, and recovers',
    async (dependency, { server: name, services }) => {
      server(name, 'stop');
      try {
        for (const service of services) {
          const answer = await eventually(service, 503);
          expect(answer.status).toBe(503);
          expect(answer.body.message).toContain(dependency);
          expect(answer.body.checks[dependency]?.ok).toBe(false);
        }
      } finally {
        server(name, 'start');
      }
      for (const service of services) {
        expect((await eventually(service, 200, 60_000)).status).toBe(200);
      }
    },
  );
});
