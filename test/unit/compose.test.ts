// No Docker engine runs here, so docker-compose.yml is checked by reading it: every service and
// front end of the repo is in it, built from a Dockerfile that exists, with a health check, the
// ports the gateway expects, dependencies that wait for health, and no secret written down.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

interface ComposeService {
  image?: string;
  build?: { context: string; target: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  healthcheck?: { test: unknown };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const dirs = (root: string) => readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const backendNames = dirs('services').filter((name) => name !== 'kit');
const frontendNames = dirs('frontends').filter((name) => name !== 'ui');
const OFFICIAL = { mongo: /^mongo:/, nats: /^nats:/, redis: /^redis:/, minio: /^minio\/minio:/, keycloak: /^quay\.io\/keycloak\/keycloak:/, mailpit: /^axllent\/mailpit:/, gateway: /^nginx:/ };

/** The port a compose service listens on inside its network. */
function listenPort(name: string): number | undefined {
  const service = services[name];
  if (!service) return undefined;
  if (service.environment?.PORT) return Number(service.environment.PORT);
  if (frontendNames.includes(name)) return 8080;
  return ({ keycloak: 8080, minio: 9000 } as Record<string, number>)[name];
}

describe('docker-compose.yml', () => {
  it('builds every service of the repo from the Dockerfile\'s service target with its own name and port', () => {
    expect(backendNames.sort()).toEqual(['auth', 'catalog', 'media', 'nutrition', 'profile']);
    for (const name of backendNames) {
      const service = services[name];
      expect(service, name).toBeDefined();
      expect(service!.build).toMatchObject({ context: '.', target: 'service', args: { SERVICE: name, PORT: service!.environment?.PORT } });
      expect(existsSync(`services/${name}/src/server.ts`)).toBe(true);
    }
  });

  it('builds every front end from the Dockerfile\'s frontend target, each with an nginx config that exists', () => {
    expect(frontendNames.sort()).toEqual(['buyer', 'farmer', 'landing', 'shell']);
    for (const name of frontendNames) {
      const build = services[name]?.build;
      expect(build, name).toMatchObject({ context: '.', target: 'frontend', args: { FRONTEND: name } });
      expect(existsSync(build?.args?.NGINX_CONF ?? 'frontends/ui/docker/nginx-remote.conf'), name).toBe(true);
    }
  });

  it('uses official images for the infrastructure', () => {
    for (const [name, pattern] of Object.entries(OFFICIAL)) expect(services[name]?.image, name).toMatch(pattern);
  });

  it('gives every long-running service a health check, and waits on health in every dependency', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name !== 'minio-init') expect(service.healthcheck?.test, `${name} health check`).toBeDefined();
      for (const [dependency, rule] of Object.entries(service.depends_on ?? {})) {
        expect(services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        expect(['service_healthy', 'service_completed_successfully']).toContain(rule.condition);
      }
    }
  });

  it('points each gateway upstream at a compose service on the port it listens on, and the template uses them all', () => {
    const gateway = services.gateway!;
    const template = readFileSync('infra/gateway/default.conf.template', 'utf8');
    expect(gateway.volumes).toContain('./infra/gateway/default.conf.template:/etc/nginx/templates/default.conf.template:ro');
    const upstreams = Object.entries(gateway.environment ?? {}).filter(([key]) => key.endsWith('_UPSTREAM'));
    expect(upstreams).toHaveLength(11);
    for (const [key, value] of upstreams) {
      const [host, port] = value.split(':');
      expect(listenPort(host!), `${key}=${value}`).toBe(Number(port));
      expect(template).toContain(`\${${key}}`);
    }
    const templateVariables = [...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((m) => m[1]);
    for (const variable of templateVariables) expect(gateway.environment?.[variable!], variable).toBeDefined();
  });

  it('keeps data in named volumes and publishes only the gateway (and Mailpit for ops)', () => {
    for (const volume of ['mongo-data', 'nats-data', 'redis-data', 'minio-data', 'keycloak-data']) expect(compose.volumes).toHaveProperty(volume);
    const published = Object.entries(services).filter(([, s]) => s.ports?.length).map(([name]) => name).sort();
    expect(published).toEqual(['gateway', 'mailpit']);
  });

  it('writes no secret: every password, secret or key comes from the environment', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/SECRET|PASSWORD|ACCESS_KEY|ROOT_USER/.test(key)) expect(String(value), `${name}.${key}`).toMatch(/^\$\{[A-Z_]+:\?.+\}$/);
      }
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const stage = (name: string) => dockerfile.split(/^FROM /m).find((part) => new RegExp(`AS ${name}\\s*$`, 'm').test(part.split('\n')[0] ?? '')) ?? '';
  it('has service and frontend targets that run as non-root users, expose a port and check health', () => {
    expect(stage('service')).toMatch(/^USER node$/m);
    expect(stage('service')).toMatch(/^EXPOSE \$\{PORT\}$/m);
    expect(stage('service')).toMatch(/^HEALTHCHECK /m);
    expect(stage('frontend')).toMatch(/nginx-unprivileged|NGINX_IMAGE/);
    expect(stage('frontend')).toMatch(/^EXPOSE 8080$/m);
    expect(stage('frontend')).toMatch(/^HEALTHCHECK /m);
  });
  it('copies the manifest of every workspace the root package.json lists', () => {
    const workspaces = (JSON.parse(readFileSync('package.json', 'utf8')) as { workspaces: string[] }).workspaces;
    for (const workspace of workspaces) expect(dockerfile).toContain(`COPY ${workspace}/package.json ${workspace}/`);
  });
});
