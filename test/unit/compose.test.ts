// No Docker engine runs on our machines, so docker-compose.yml and the service Dockerfiles are checked
// by reading them (docs/adr/0008): every service and front end of the repo runs from its own
// Dockerfile, waits for what it needs, answers on the port the gateway and the other services use,
// keeps its data in named volumes, and no secret is written down.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), 'utf8');
const exists = (path: string) => existsSync(join(repo, path));

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: unknown; disable?: boolean };
  depends_on?: Record<string, { condition?: string }>;
  volumes?: string[];
  ports?: string[];
  restart?: string;
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
}

const composeText = read('docker-compose.yml');
// Our own file, not untrusted input: its shared blocks (x-service, x-restart...) are merged into every service,
// more times than the YAML library's guard against alias bombs allows by default (compose-go has no such limit).
const compose = parse(composeText, { merge: true, maxAliasCount: -1 }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  networks?: Record<string, { internal?: boolean } | null>;
};
const services = compose.services;

const subdirectories = (root: string) =>
  readdirSync(join(repo, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const backendNames = subdirectories('services').filter((name) => name !== 'kit');
// The deployable front ends: every folder but the two libraries (the shared contract and the bundled ui).
const frontendNames = subdirectories('frontends').filter((name) => name !== 'ui' && name !== 'shell-contract');
/** A front end's compose service: its folder's name, or <name>-ui where a service has that name (the moderation desk). */
const composeNameOf = (frontend: string) => (backendNames.includes(frontend) ? `${frontend}-ui` : frontend);

/** The ports and the database of each service, as the architecture fixes them. */
const BACKENDS: Record<string, { port: number; database?: string }> = {
  auth: { port: 4001 },
  profile: { port: 4002, database: 'profile' },
  catalog: { port: 4003, database: 'catalog' },
  media: { port: 4004, database: 'media' },
  nutrition: { port: 4005 },
  orders: { port: 4006, database: 'orders' },
  moderation: { port: 4007, database: 'moderation' },
};
/** Which stores a service uses, from the config fragments its src/config.ts composes. */
const uses = (name: string) => {
  const config = read(`services/${name}/src/config.ts`);
  return { nats: /\bNatsConfig\b/.test(config), redis: /\bRedisConfig\b/.test(config), mongo: /\bmongoConfig\(/.test(config) };
};
const OFFICIAL_IMAGES: Record<string, RegExp> = {
  mongo: /^mongo:7(\.|$)/,
  nats: /^nats:/,
  'nats-2': /^nats:/,
  'nats-3': /^nats:/,
  redis: /^redis:/,
  minio: /^(quay\.io\/)?minio\/minio:/,
  'minio-init': /^(quay\.io\/)?minio\/mc:/,
  keycloak: /^quay\.io\/keycloak\/keycloak:/,
  mailpit: /^axllent\/mailpit:/,
  gateway: /^nginx:/,
  // Observability (docs/adr/0038).
  'otel-collector': /^otel\/opentelemetry-collector-contrib:\d/,
  jaeger: /^jaegertracing\/jaeger:2\./,
  prometheus: /^prom\/prometheus:v\d/,
  grafana: /^grafana\/grafana:\d/,
  'gateway-spans': /^node:20-/,
  // The SMS catcher: our own dependency-free script (infra/sms-catcher) on the official Node image.
  'sms-catcher': /^node:20-/,
};
/** Where the official images listen, for the ones whose command does not change it. */
const IMAGE_PORTS: Record<string, number[]> = {
  mongo: [27017],
  // The NATS cluster's nodes (docs/adr/0040): clients, monitor, routes.
  nats: [4222, 8222, 6222],
  'nats-2': [4222, 8222, 6222],
  'nats-3': [4222, 8222, 6222],
  redis: [6379],
  // The catalog's read model's own Redis (docs/adr/0061).
  'redis-readmodel': [6379],
  minio: [9000, 9001],
  keycloak: [8080, 9000],
  mailpit: [1025, 8025],
  // Observability (docs/adr/0038): as their configs in infra/observability set them.
  'otel-collector': [4317, 4318, 8888, 8889, 13133],
  jaeger: [4317, 4318, 8888, 13133, 16685, 16686],
  prometheus: [9090],
  grafana: [3000],
  'gateway-spans': [4320],
  // As its environment sets it (SMS_CATCHER_PORT).
  'sms-catcher': [8026],
};

/** A value as compose sees it with no variable set: `${X:-d}` is d, `${X:?m}` is <X>, `$$` is `$`. */
function interpolate(value: string): string {
  return value
    .replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_m, _name: string, fallback?: string) => fallback ?? '')
    .replace(/\$\{([A-Z0-9_]+):?\?[^}]*\}/g, (_m, name: string) => `<${name}>`)
    .replaceAll('$$', '$');
}

// ---------- Dockerfiles ----------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  instructions: Instruction[];
  /** ARG values visible in the stage (declared in it, defaults from the global ARGs). */
  args: Record<string, string>;
}

function parseDockerfile(text: string): { globalArgs: Record<string, string>; stages: Stage[] } {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    const stage = stages.at(-1);
    if (instruction.keyword === 'FROM') {
      stages.push({ from: args.split(/\s+/)[0]!, instructions: [], args: {} });
    } else if (instruction.keyword === 'ARG') {
      const [name = '', value] = args.split('=', 2);
      if (!stage) globalArgs[name] = value ?? '';
      else stage.args[name] = value ?? globalArgs[name] ?? '';
    }
    if (stage && instruction.keyword !== 'FROM') stage.instructions.push(instruction);
  }
  return { globalArgs, stages };
}

const expand = (value: string, args: Record<string, string>) =>
  value.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => args[name] ?? '');
const finalStage = (path: string) => parseDockerfile(read(path)).stages.at(-1)!;
const instructionsOf = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
/** The ports a Dockerfile's final stage exposes. */
const exposedPorts = (path: string) => {
  const stage = finalStage(path);
  return instructionsOf(stage, 'EXPOSE').flatMap((i) =>
    expand(i.args, stage.args)
      .split(/\s+/)
      .map((p) => Number(p.split('/')[0])),
  );
};

/** Every port a compose service listens on inside the compose network. */
function listenPorts(name: string): number[] {
  const service = services[name];
  if (!service) return [];
  if (service.environment?.PORT) return [Number(service.environment.PORT)];
  if (service.build?.dockerfile && exists(service.build.dockerfile)) return exposedPorts(service.build.dockerfile);
  return IMAGE_PORTS[name] ?? [];
}

/** `host:port` (or a URL) naming a compose service on a port it listens on. */
function expectServiceAddress(where: string, host: string, port: number) {
  expect(services[host], `${where}: no compose service "${host}"`).toBeDefined();
  expect(listenPorts(host), `${where}: ${host} does not listen on ${port} (per its PORT, its Dockerfile's EXPOSE or its image)`).toContain(
    port,
  );
}

// ---------- .dockerignore ----------

const ignorePatterns = read('.dockerignore')
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^$()|[\]{}]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replaceAll('\u0000', '(.*/)?')}$`,
  );
/** Whether .dockerignore keeps `path` (or a folder above it) out of the build context. */
function ignoredByDocker(path: string): boolean {
  const parts = path.split('/');
  let ignored = false;
  for (const pattern of ignorePatterns) {
    const negated = pattern.startsWith('!');
    const regex = globToRegExp(negated ? pattern.slice(1) : pattern);
    for (let i = 1; i <= parts.length; i++) {
      if (regex.test(parts.slice(0, i).join('/'))) ignored = !negated;
    }
  }
  return ignored;
}

// ---------- docker-compose.yml ----------

describe('docker-compose.yml', () => {
  it('runs every service and every front end of the repo from its own Dockerfile', () => {
    expect(backendNames).toEqual(expect.arrayContaining(Object.keys(BACKENDS)));
    expect(frontendNames).toEqual(expect.arrayContaining(['shell', 'landing', 'buyer', 'farmer', 'moderation']));
    expect(composeNameOf('moderation')).toBe('moderation-ui');
    for (const [folder, names] of [
      ['services', backendNames],
      ['frontends', frontendNames],
    ] as const) {
      for (const name of names) {
        const dockerfile = `${folder}/${name}/Dockerfile`;
        const unit = folder === 'frontends' ? composeNameOf(name) : name;
        expect(services[unit], `compose service ${unit}`).toBeDefined();
        expect(services[unit]!.build, unit).toEqual({ context: '.', dockerfile });
        expect(exists(dockerfile), `${dockerfile} exists`).toBe(true);
      }
    }
  });

  it('runs each service on its own port and database with the shared settings', () => {
    for (const [name, { port, database }] of Object.entries(BACKENDS)) {
      const env = Object.fromEntries(Object.entries(services[name]?.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      expect(env, name).toMatchObject({
        PORT: String(port),
        HOST: '0.0.0.0',
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        KEYCLOAK_URL: 'http://keycloak:8080/auth',
        KEYCLOAK_REALM: 'tuber',
        OIDC_ISSUER: 'http://localhost:8080/auth/realms/tuber',
        OIDC_AUDIENCE: 'tuber-api',
        PUBLIC_URL: 'http://localhost:8080',
      });
      // Each store with the service's own user, the password from the environment (docs/adr/0017).
      const secret = (store: string) => `<${store}_${name.toUpperCase()}_PASSWORD>`;
      const stores = uses(name);
      // Every node of the NATS cluster, the credentials on the first; streams with 3 replicas (docs/adr/0040).
      expect(env.NATS_URL, `${name} NATS_URL`).toBe(
        stores.nats ? `nats://${name}:${secret('NATS')}@nats:4222,nats://nats-2:4222,nats://nats-3:4222` : undefined,
      );
      expect(env.NATS_STREAM_REPLICAS, `${name} NATS_STREAM_REPLICAS`).toBe(stores.nats ? '3' : undefined);
      expect(env.REDIS_URL, `${name} REDIS_URL`).toBe(stores.redis ? `redis://${name}:${secret('REDIS')}@redis:6379` : undefined);
      expect(env.MONGO_URL, `${name} MONGO_URL`).toBe(
        stores.mongo ? `mongodb://${name}:${secret('MONGO')}@mongo:27017/${database}` : undefined,
      );
      expect(Boolean(database), `${name} has a database exactly when its config asks for one`).toBe(stores.mongo);
    }
    // The services that send e-mail: the auth service (account mail) and orders (notifications, issue 12).
    for (const name of ['auth', 'orders'])
      expect(services[name]!.environment, name).toMatchObject({ SMTP_HOST: 'mailpit', SMTP_PORT: '1025' });
    expect(services.orders!.depends_on?.mailpit?.condition, 'orders waits for the mail server').toBe('service_healthy');
    // The services that send SMS (issue 26): profile and orders, to the SMS catcher with the key it expects.
    for (const name of ['profile', 'orders']) {
      const env = services[name]!.environment!;
      expect(interpolate(env.SMS_API_URL!), name).toBe('http://sms-catcher:8026');
      expect(env.SMS_API_KEY, name).toBe(services['sms-catcher']!.environment!.SMS_CATCHER_API_KEY);
      expect(env.SMS_SENDER_ID, name).toMatch(/^[A-Za-z0-9 ]{3,11}$/);
      expect(services[name]!.depends_on?.['sms-catcher']?.condition, `${name} waits for the SMS catcher`).toBe('service_healthy');
    }
    expect(services['sms-catcher']!.environment).toMatchObject({ SMS_CATCHER_HOST: '0.0.0.0', SMS_CATCHER_PORT: '8026' });
    expect(services['sms-catcher']!.volumes).toEqual(['./infra/sms-catcher/catcher.mjs:/catcher/catcher.mjs:ro']);
    expect(services['sms-catcher']!.command).toEqual(['node', '/catcher/catcher.mjs']);
    expect(services.auth!.environment!.KEYCLOAK_AUTH_CLIENT_SECRET).toBe(
      services['keycloak-provision']!.environment!.TUBER_AUTH_CLIENT_SECRET,
    );
    // The moderation service's Keycloak client (tuber-moderation): the secret the provisioning gives the realm.
    expect(services.moderation!.environment!.KEYCLOAK_MODERATION_CLIENT_SECRET).toBe(
      services['keycloak-provision']!.environment!.TUBER_MODERATION_CLIENT_SECRET,
    );
    expect(services['keycloak-provision']!.environment!.MODERATION_CLIENT_SECRET).toBe(
      services['keycloak-provision']!.environment!.TUBER_MODERATION_CLIENT_SECRET,
    );
    expect(services.media!.environment).toMatchObject({ MINIO_ENDPOINT: 'minio', MINIO_PORT: '9000', MINIO_BUCKET: 'product-images' });
    // Media signs in to MinIO as its own user (made by minio-init), never as root.
    expect(services.media!.environment!.MINIO_ACCESS_KEY).toBe('media');
    expect(services.media!.environment!.MINIO_SECRET_KEY).toBe(services['minio-init']!.environment!.MINIO_MEDIA_PASSWORD);
    expect(services.media!.environment!.MINIO_SECRET_KEY).not.toBe(services.minio!.environment!.MINIO_ROOT_PASSWORD);
  });

  it('addresses only compose services, on ports they listen on', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, raw] of Object.entries(service.environment ?? {})) {
        const value = interpolate(String(raw));
        if (!/^[a-z]+:\/\/[^/]+:\d+/.test(value)) continue;
        // A NATS cluster is a comma-separated list of URLs.
        for (const entry of key === 'NATS_URL' ? value.split(',') : [value]) {
          const url = new URL(entry);
          if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') continue;
          expectServiceAddress(`${name}.${key}=${entry}`, url.hostname, Number(url.port));
        }
      }
    }
    for (const name of ['auth', 'orders'])
      expectServiceAddress(`${name} SMTP`, services[name]!.environment!.SMTP_HOST!, Number(services[name]!.environment!.SMTP_PORT));
    expectServiceAddress('media MinIO', services.media!.environment!.MINIO_ENDPOINT!, Number(services.media!.environment!.MINIO_PORT));
  });

  it('uses official, pinned images for the infrastructure', () => {
    for (const [name, pattern] of Object.entries(OFFICIAL_IMAGES)) expect(services[name]?.image, name).toMatch(pattern);
    for (const [name, service] of Object.entries(services)) {
      if (!service.image) continue;
      expect(service.image, `${name} names a tag`).toMatch(/:[^/]+$/);
      expect(service.image, `${name} is pinned`).not.toMatch(/:latest$/);
    }
  });

  it('gives every long-running container a health check and a restart policy; one-shots run once', () => {
    const oneShots = new Set(
      Object.values(services).flatMap((s) =>
        Object.entries(s.depends_on ?? {})
          .filter(([, rule]) => rule.condition === 'service_completed_successfully')
          .map(([dependency]) => dependency),
      ),
    );
    expect([...oneShots].sort()).toEqual(['keycloak-provision', 'minio-init']);
    for (const [name, service] of Object.entries(services)) {
      if (oneShots.has(name)) {
        expect(service.restart, `${name} runs once`).toBe('no');
        continue;
      }
      expect(service.healthcheck?.disable, name).not.toBe(true);
      expect(service.healthcheck?.test, `${name} health check`).toEqual(expect.arrayContaining([expect.stringMatching(/^CMD(-SHELL)?$/)]));
      expect(service.restart, `${name} restart policy`).toMatch(/^(always|unless-stopped|on-failure)/);
    }
  });

  it('makes every dependency wait on a condition that the dependency can meet, without cycles', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(Array.isArray(service.depends_on), `${name}: depends_on must name conditions`).toBe(false);
      for (const [dependency, rule] of Object.entries(service.depends_on ?? {})) {
        const target = services[dependency];
        expect(target, `${name} depends on missing ${dependency}`).toBeDefined();
        if (rule.condition === 'service_healthy')
          expect(target!.healthcheck?.test, `${dependency} has a health check to wait on`).toBeDefined();
        else expect(rule.condition, `${name} -> ${dependency}`).toBe('service_completed_successfully');
      }
    }
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, path: string[]) => {
      if (done.has(name)) return;
      expect(visiting.has(name), `dependency cycle ${[...path, name].join(' -> ')}`).toBe(false);
      visiting.add(name);
      for (const dependency of Object.keys(services[name]?.depends_on ?? {})) visit(dependency, [...path, name]);
      visiting.delete(name);
      done.add(name);
    };
    for (const name of Object.keys(services)) visit(name, []);
  });

  it('points each gateway upstream at a compose service on a port it listens on, and the template uses exactly those', () => {
    const gateway = services.gateway!;
    const templateMount = gateway.volumes?.find((v) => v.split(':')[1]?.startsWith('/etc/nginx/templates/'));
    expect(templateMount, 'gateway mounts a template').toBe(
      './infra/gateway/default.conf.template:/etc/nginx/templates/default.conf.template:ro',
    );
    const templatePath = templateMount!.split(':')[0]!.replace(/^\.\//, '');
    expect(exists(templatePath), `${templatePath} exists`).toBe(true);
    const template = read(templatePath);

    const upstreams = Object.entries(gateway.environment ?? {}).filter(([key]) => key.endsWith('_UPSTREAM'));
    expect(upstreams.map(([key]) => key).sort()).toEqual(
      [
        'SHELL',
        'LANDING',
        'BUYER',
        'FARMER',
        'MODERATION_UI',
        'AUTH',
        'PROFILE',
        'CATALOG',
        'MEDIA',
        'NUTRITION',
        'ORDERS',
        'MODERATION',
        'KEYCLOAK',
        'MINIO',
      ]
        .map((n) => `${n}_UPSTREAM`)
        .sort(),
    );
    for (const [key, value] of upstreams) {
      const [host = '', port = ''] = value.split(':');
      expectServiceAddress(`gateway ${key}=${value}`, host, Number(port));
      expect(template, `template uses \${${key}}`).toContain(`\${${key}}`);
      // nginx resolves upstream names at start-up: they must be running (and healthy) before it.
      expect(gateway.depends_on?.[host]?.condition, `gateway waits for ${host}`).toBe('service_healthy');
    }
    const templateVariables = new Set([...template.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]!));
    for (const variable of templateVariables) expect(gateway.environment?.[variable], `gateway sets ${variable}`).toBeDefined();

    const port = gateway.environment!.GATEWAY_PORT;
    expect(gateway.ports).toEqual([`8080:${port}`]);
    expect(JSON.stringify(gateway.healthcheck?.test)).toContain(`127.0.0.1:${port}/`);
  });

  it('tells the shell where each remote is, under the path the gateway serves it from', () => {
    const remotes = Object.fromEntries(
      services.shell!.environment!.SHELL_REMOTES!.split(',').map((pair) => pair.split('=') as [string, string]),
    );
    const template = read('infra/gateway/default.conf.template');
    for (const remote of frontendNames.filter((name) => name !== 'shell')) {
      expect(remotes[remote], `SHELL_REMOTES names ${remote}`).toBe(`/mf/${remote}/mf-manifest.json`);
      expect(template).toContain(`location /mf/${remote}/`);
    }
  });

  it('keeps data in declared named volumes', () => {
    const dataVolumes: Record<string, string> = {
      mongo: 'mongo-data:/data/db',
      nats: 'nats-data:/data',
      'nats-2': 'nats-2-data:/data',
      'nats-3': 'nats-3-data:/data',
      redis: 'redis-data:/data',
      minio: 'minio-data:/data',
      keycloak: 'keycloak-data:/opt/keycloak/data',
    };
    for (const [name, mount] of Object.entries(dataVolumes)) expect(services[name]?.volumes, name).toContain(mount);
    for (const [name, service] of Object.entries(services)) {
      for (const mount of service.volumes ?? []) {
        const source = mount.split(':')[0]!;
        if (source.startsWith('.') || source.startsWith('/')) expect(exists(source), `${name} mounts ${source}`).toBe(true);
        else expect(compose.volumes, `volume ${source} is declared`).toHaveProperty(source);
      }
    }
    expect(services.nats!.command).toEqual(expect.arrayContaining(['--jetstream', '--store_dir', '/data']));
    expect(services.minio!.command).toEqual(expect.arrayContaining(['server', '/data']));
  });

  it('publishes only the gateway, and Mailpit’s UI and Keycloak’s administration on loopback for ops', () => {
    const published = Object.entries(services)
      .filter(([, s]) => s.ports?.length)
      .map(([name]) => name)
      .sort();
    expect(published).toEqual(['gateway', 'grafana', 'jaeger', 'keycloak', 'mailpit']);
    // The observability UIs on loopback only (docs/adr/0038).
    expect(services.jaeger!.ports).toEqual(['127.0.0.1:16686:16686']);
    expect(services.grafana!.ports).toEqual(['127.0.0.1:3300:3000']);
    // Keycloak's administration (hostname-admin) on the host's loopback only (docs/adr/0018).
    expect(services.keycloak!.ports).toEqual(['127.0.0.1:8180:8080']);
    expect(services.mailpit!.ports).toEqual(['127.0.0.1:8025:8025']);
  });

  it('creates the product-images bucket, readable object by object, and media’s user limited to it, before media starts', () => {
    const init = services['minio-init']!;
    const script = (init.command ?? []).join(' ');
    expect(init.volumes).toContain('./infra/minio:/policies:ro');
    expect(script).toMatch(/mc mb --ignore-existing \S+\/product-images/);
    expect(script).toMatch(/mc anonymous set-json \/policies\/public-read\.json \S+\/product-images/);
    expect(script).toMatch(/mc admin policy create \S+ tuber-media \/policies\/media-policy\.json/);
    expect(script).toMatch(/mc admin user add \S+ media "\$\$MINIO_MEDIA_PASSWORD"/);
    expect(script).toMatch(/mc admin policy attach \S+ tuber-media --user media/);
    expect(init.depends_on?.minio?.condition).toBe('service_healthy');
    expect(services.media!.depends_on?.['minio-init']?.condition).toBe('service_completed_successfully');

    // Anyone may get an object; nobody may list the bucket.
    const publicRead = JSON.parse(read('infra/minio/public-read.json'));
    expect(publicRead.Statement).toEqual([
      { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:GetObject'], Resource: ['arn:aws:s3:::product-images/*'] },
    ]);
    // Media: objects of its bucket, and the bucket itself only to find and check it.
    const mediaPolicy = JSON.parse(read('infra/minio/media-policy.json')) as { Statement: { Action: string[]; Resource: string[] }[] };
    const resources = mediaPolicy.Statement.flatMap((statement) => statement.Resource);
    expect(new Set(resources)).toEqual(new Set(['arn:aws:s3:::product-images', 'arn:aws:s3:::product-images/*']));
    const actions = mediaPolicy.Statement.flatMap((statement) => statement.Action);
    expect(
      actions.every((action) => /^s3:(Get|Put|Delete)Object$|^s3:(GetBucketLocation|ListBucket)$/.test(action)),
      actions.join(),
    ).toBe(true);
  });

  it('starts Keycloak behind the gateway at /auth, provisioned with the realm file and every value it needs', () => {
    const keycloak = services.keycloak!;
    const command = (keycloak.command ?? []).map(interpolate);
    expect(command[0]).toBe('start');
    expect(command).toEqual(
      expect.arrayContaining([
        '--health-enabled=true',
        '--http-enabled=true',
        '--http-relative-path=/auth',
        '--hostname=http://localhost:8080/auth',
        '--hostname-backchannel-dynamic=true',
        '--proxy-headers=xforwarded',
        '--hostname-admin=http://127.0.0.1:8180/auth',
        '--proxy-trusted-addresses=172.29.254.0/29',
      ]),
    );
    expect(
      command.some((flag) => /^--http-port=/.test(flag)),
      'listens on its default 8080',
    ).toBe(false);
    // The realm, the named admins and the password list come from keycloak-provision (docs/adr/0018).
    const provision = services['keycloak-provision']!;
    expect(provision.volumes).toContain('./infra/keycloak/tuber-realm.json:/provision/tuber-realm.json:ro');
    expect(provision.depends_on?.keycloak?.condition).toBe('service_healthy');
    expect(services.auth!.depends_on?.['keycloak-provision']?.condition).toBe('service_completed_successfully');
    expect(services.moderation!.depends_on?.['keycloak-provision']?.condition).toBe('service_completed_successfully');
    const realm = read('infra/keycloak/tuber-realm.json');
    const placeholders = new Set([...realm.matchAll(/\$\{(TUBER_[A-Z0-9_]+)(:[^}]*)?\}/g)].map((m) => m[1]!));
    for (const name of placeholders) expect(provision.environment?.[name], `keycloak-provision sets ${name} for the realm`).toBeDefined();
    expect(keycloak.environment?.KC_BOOTSTRAP_ADMIN_CLIENT_SECRET).toMatch(/^\$\{[A-Z_]+:\?/);
    expect(provision.environment?.BOOTSTRAP_CLIENT_SECRET).toBe(keycloak.environment?.KC_BOOTSTRAP_ADMIN_CLIENT_SECRET);
    expect(JSON.stringify(keycloak.healthcheck?.test)).toContain('/dev/tcp/127.0.0.1/9000');
    expect(JSON.stringify(keycloak.healthcheck?.test)).toContain('/auth/health/ready');
  });

  it('writes no secret: passwords, secrets and keys come from the environment, and ops are told which', () => {
    const secretExample = read('infra/compose/secrets.env.example');
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        // A password inside a connection URL is a required variable too.
        const userinfo = /^[a-z]+:\/\/[^:/@]+:([^@]*)@/.exec(String(value));
        if (userinfo) expect(userinfo[1], `${name}.${key}`).toMatch(/^\$\{[A-Z0-9_]+:\?.+\}$/);
        // User names, not secrets: media's MinIO access key, MongoDB's administrator.
        if ((name === 'media' && key === 'MINIO_ACCESS_KEY') || (name === 'mongo' && key === 'MONGO_INITDB_ROOT_USERNAME')) continue;
        if (!/SECRET|PASSWORD|ACCESS_KEY|_KEY$|TOKEN|ROOT_USER/.test(key)) continue;
        // Required (${X:?why}) or optional with no default (${X:-}): never a value in the file.
        expect(String(value), `${name}.${key}`).toMatch(/^\$\{[A-Z0-9_]+(:\?.+|:-)\}$/);
      }
    }
    const required = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!));
    expect(required.size).toBeGreaterThan(0);
    for (const name of required) expect(secretExample, `secrets.env.example lists ${name}`).toMatch(new RegExp(`^${name}=$`, 'm'));
    const listed = [...secretExample.matchAll(/^([A-Z0-9_]+)=$/gm)].map((m) => m[1]!);
    for (const name of listed) expect([...required], `docker-compose.yml uses ${name}`).toContain(name);
  });
});

// ---------- credentials and networks (docs/adr/0017) ----------

describe('docker-compose.yml: internal servers ask for credentials, with least privilege', () => {
  const nats = services.nats!;
  const redis = services.redis!;
  const mongo = services.mongo!;
  /** The password variable inside a service's connection URL, e.g. NATS_AUTH_PASSWORD. */
  const passwordVariable = (service: string, key: string) =>
    /^[a-z]+:\/\/[^:]+:\$\{([A-Z0-9_]+):\?/.exec(services[service]?.environment?.[key] ?? '')?.[1];

  it('NATS: one user per publishing service, from the permissions table, its password given to the server', async () => {
    const { render } = (await import(new URL('../../infra/nats/render.mjs', import.meta.url).href)) as {
      render: (options: { withTestUser: boolean }) => string;
    };
    expect(nats.volumes).toContain('./infra/compose/nats-users.conf:/etc/nats/users.conf:ro');
    expect(nats.command?.slice(0, 2)).toEqual(['--config', '/etc/nats/users.conf']);
    expect(read('infra/compose/nats-users.conf'), 'infra/compose/nats-users.conf is `node infra/nats/render.mjs`').toBe(
      render({ withTestUser: false }),
    );
    expect(read('infra/compose/nats-users.test.conf'), 'nats-users.test.conf is `render.mjs --with-test-user`').toBe(
      render({ withTestUser: true }),
    );
    for (const name of backendNames.filter((n) => uses(n).nats)) {
      const variable = passwordVariable(name, 'NATS_URL');
      expect(variable, `${name} NATS_URL`).toBe(`NATS_${name.toUpperCase()}_PASSWORD`);
      expect(nats.environment?.[variable!], `nats knows ${name}'s password`).toBe(
        services[name]!.environment!.NATS_URL!.match(/\$\{[^}]+\}/)![0],
      );
    }
  });

  it('NATS: a 3-node JetStream cluster, routes signed in, every node with the same users, services on all three (docs/adr/0040)', async () => {
    const { natsServer } = await import('../../services/kit/src/credentials.js');
    const nodes = ['nats', 'nats-2', 'nats-3'];
    const flag = (command: string[], name: string) => command[command.indexOf(name) + 1];
    const routePassword = /^\$\{NATS_ROUTE_PASSWORD:\?.+\}$/;
    const names = new Set<string>();
    const stores = new Set<string>();
    for (const node of nodes) {
      const service = services[node]!;
      const command = service.command ?? [];
      expect(service.image, node).toBe(nats.image);
      expect(service.environment, `${node} knows every service's password`).toEqual(nats.environment);
      expect(service.volumes, node).toContain('./infra/compose/nats-users.conf:/etc/nats/users.conf:ro');
      expect(command.slice(0, 2), node).toEqual(['--config', '/etc/nats/users.conf']);
      expect(command, node).toEqual(expect.arrayContaining(['--jetstream', '--store_dir', '/data', '--cluster_name', 'tuber']));
      names.add(flag(command, '--server_name')!);
      stores.add(service.volumes!.find((v) => v.endsWith(':/data'))!);
      // The route listener asks for the route user; the routes name every node with it.
      const listen = new URL(flag(command, '--cluster')!.replace(/\$\{[^}]+\}/, 'PASSWORD'));
      expect([listen.username, listen.hostname, listen.port], node).toEqual(['route', '0.0.0.0', '6222']);
      expect(flag(command, '--cluster')!.match(/\$\{[^}]+\}/)![0], node).toMatch(routePassword);
      const routes = flag(command, '--routes')!.split(',');
      expect(
        routes.map((r) => r.replace(/\$\{[^}]+\}/, 'PASSWORD')),
        node,
      ).toEqual(nodes.map((n) => `nats://route:PASSWORD@${n}:6222`));
      for (const route of routes) expect(route.match(/\$\{[^}]+\}/)![0]).toMatch(routePassword);
      // Healthy only with a JetStream meta leader (plain /healthz), not merely with JetStream on.
      expect(JSON.stringify(service.healthcheck?.test), node).toContain('http://127.0.0.1:8222/healthz"');
    }
    expect(names.size, 'distinct server names').toBe(3);
    expect(stores.size, 'a store per node').toBe(3);
    for (const name of backendNames.filter((n) => uses(n).nats)) {
      const { servers, user } = natsServer(interpolate(services[name]!.environment!.NATS_URL!));
      expect(user, name).toBe(name);
      expect(servers, name).toEqual(nodes.map((n) => `nats://${n}:4222`));
      expect(Number(services[name]!.environment!.NATS_STREAM_REPLICAS), `${name}: no more replicas than nodes`).toBeLessThanOrEqual(
        nodes.length,
      );
    }
    // The test overlay gives every node the tests' user.
    const overlay = parse(read('infra/compose/test-infra.yml')) as { services: Record<string, ComposeService> };
    for (const node of nodes) {
      expect(overlay.services[node]?.volumes, node).toEqual(['./infra/compose/nats-users.test.conf:/etc/nats/users.conf:ro']);
      expect(overlay.services[node]?.environment, node).toHaveProperty('NATS_TUBER_TEST_PASSWORD');
    }
  });

  it('Redis: the default user off, one ACL user per service, the health check signed in', () => {
    expect(redis.volumes).toContain('./infra/redis/acl.sh:/etc/redis/acl.sh:ro');
    const script = (redis.command ?? []).join(' ');
    expect(script).toMatch(/sh \/etc\/redis\/acl\.sh > (\S+) && exec docker-entrypoint\.sh redis-server --aclfile \1/);
    expect(read('infra/redis/acl.sh')).toMatch(/^echo "user default off/m);
    for (const name of backendNames.filter((n) => uses(n).redis)) {
      const variable = passwordVariable(name, 'REDIS_URL');
      expect(variable, `${name} REDIS_URL`).toBe(`REDIS_${name.toUpperCase()}_PASSWORD`);
      expect(redis.environment?.[variable!], `redis knows ${name}'s password`).toBeDefined();
    }
    expect(JSON.stringify(redis.healthcheck?.test)).toMatch(/redis-cli --user \w+ ping/);
  });

  it("Redis for the catalog's read model (docs/adr/0061): its own memory budget, noeviction, only the catalog's user, the catalog pointed at it", () => {
    const readModel = services['redis-readmodel']!;
    const script = (readModel.command ?? []).join(' ');
    expect(script).toMatch(/sh \/etc\/redis\/acl\.sh readmodel > (\S+) && exec docker-entrypoint\.sh redis-server --aclfile \1/);
    expect(script).toMatch(/--maxmemory \S+ --maxmemory-policy noeviction/);
    expect((redis.command ?? []).join(' ')).toMatch(/--maxmemory 256mb --maxmemory-policy noeviction/);
    expect(Object.keys(readModel.environment ?? {}).filter((name) => /^REDIS_\w+_PASSWORD$/.test(name))).toEqual([
      'REDIS_CATALOG_PASSWORD',
    ]);
    expect(readModel.volumes?.some((volume) => volume.startsWith('redis-readmodel-data:'))).toBe(true);
    expect(services.catalog!.environment?.CATALOG_READMODEL_REDIS_URL).toMatch(
      /^redis:\/\/catalog:\$\{REDIS_CATALOG_PASSWORD:\?[^}]*\}@redis-readmodel:6379$/,
    );
    expect(JSON.stringify(readModel.healthcheck?.test)).toMatch(/redis-cli --user catalog ping/);
  });

  it('MongoDB: an administrator, and a user per service database made on first start', () => {
    expect(mongo.environment?.MONGO_INITDB_ROOT_PASSWORD).toMatch(/^\$\{MONGO_ROOT_PASSWORD:\?/);
    expect(mongo.volumes).toContain('./infra/compose/mongo-users.js:/docker-entrypoint-initdb.d/10-users.js:ro');
    const init = read('infra/compose/mongo-users.js');
    for (const [name, { database }] of Object.entries(BACKENDS)) {
      if (!database) continue;
      expect(passwordVariable(name, 'MONGO_URL')).toBe(`MONGO_${name.toUpperCase()}_PASSWORD`);
      expect(mongo.environment?.[`MONGO_${name.toUpperCase()}_PASSWORD`], `mongo gets ${name}'s password`).toBeDefined();
      expect(init).toContain(`'${database}'`);
    }
    expect(init).toMatch(/role: 'readWrite', db: name/);
  });

  it('two networks: data servers only on `data` (internal), the gateway and front ends only on `public`', () => {
    expect(Object.keys(compose.networks ?? {}).sort()).toEqual(['data', 'keycloak-edge', 'mail-ops', 'obs-ops', 'public']);
    expect(compose.networks!.data?.internal).toBe(true);
    const on = (name: string) => {
      const networks = services[name]?.networks ?? [];
      return Array.isArray(networks) ? networks : Object.keys(networks);
    };
    for (const [name, service] of Object.entries(services)) expect(service.networks, `${name} names its networks`).toBeDefined();
    // Nothing but what the gateway proxies shares a network with it: no database, bus, cache or mail.
    for (const name of ['mongo', 'nats', 'redis', 'mailpit', 'minio-init']) expect(on(name), name).not.toContain('public');
    for (const name of ['mongo', 'nats', 'nats-2', 'nats-3', 'redis', 'sms-catcher']) expect(on(name), name).toEqual(['data']);
    expect(on('gateway')).toEqual(['public', 'keycloak-edge']);
    // The services believe X-Forwarded-For from the gateway's fixed address on `public` alone.
    const gatewayNetworks = services.gateway!.networks as Record<string, { ipv4_address?: string } | null>;
    const gatewayAddress = gatewayNetworks.public?.ipv4_address;
    expect(gatewayAddress, 'the gateway has a fixed address on public').toMatch(/^\$\{GATEWAY_PUBLIC_ADDRESS:-172\.29\.253\.\d+\}$/);
    for (const name of backendNames)
      expect(services[name]!.environment?.TRUSTED_PROXIES, `${name} trusts the gateway`).toBe(gatewayAddress);
    for (const name of frontendNames) expect(on(composeNameOf(name)), name).toEqual(['public']);
    // Proxied by the gateway (/files/, /auth/) and used by the services: both.
    expect([...on('minio')].sort()).toEqual(['data', 'public']);
    // Keycloak meets the gateway on keycloak-edge alone, the only X-Forwarded-* it believes, and the
    // services on data (docs/adr/0018).
    expect([...on('keycloak')].sort()).toEqual(['data', 'keycloak-edge']);
    expect(
      Object.keys(services)
        .filter((name) => on(name).includes('keycloak-edge'))
        .sort(),
    ).toEqual(['gateway', 'keycloak']);
    for (const name of backendNames) expect([...on(name)].sort(), name).toEqual(['data', 'public']);
    // Every upstream of the gateway is on its network; the mail UI port has its own network.
    for (const [key, value] of Object.entries(services.gateway!.environment ?? {})) {
      if (key.endsWith('_UPSTREAM'))
        expect(
          on(value.split(':')[0]!).some((network) => on('gateway').includes(network)),
          `${key}=${value}`,
        ).toBe(true);
    }
    expect(on('mailpit').sort()).toEqual(['data', 'mail-ops']);
    // Observability (docs/adr/0038): the collector and Prometheus on data only; Jaeger's and Grafana's
    // UIs reach the host through obs-ops alone; the span relay meets the gateway on public.
    for (const name of ['otel-collector', 'prometheus']) expect(on(name), name).toEqual(['data']);
    for (const name of ['jaeger', 'grafana']) expect([...on(name)].sort(), name).toEqual(['data', 'obs-ops']);
    expect(
      Object.keys(services)
        .filter((name) => on(name).includes('obs-ops'))
        .sort(),
    ).toEqual(['grafana', 'jaeger']);
    expect([...on('gateway-spans')].sort()).toEqual(['data', 'public']);
    for (const [name, service] of Object.entries(services))
      if (name !== 'mailpit') expect(service.networks, name).not.toContain('mail-ops');
    // Each dependency shares a network with what depends on it.
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect(
          on(name).some((network) => on(dependency).includes(network)),
          `${name} and ${dependency} share a network`,
        ).toBe(true);
      }
    }
  });

  it('the test overlay adds the tests’ users and opens the data network for published ports', () => {
    const overlay = parse(read('infra/compose/test-infra.yml')) as {
      services: Record<string, ComposeService>;
      networks?: Record<string, { internal?: boolean }>;
    };
    expect(overlay.networks?.data?.internal).toBe(false);
    expect(overlay.services.nats!.volumes).toEqual(['./infra/compose/nats-users.test.conf:/etc/nats/users.conf:ro']);
    expect(overlay.services.nats!.environment).toHaveProperty('NATS_TUBER_TEST_PASSWORD');
    expect(overlay.services.redis!.environment).toHaveProperty('REDIS_TUBER_TEST_PASSWORD');
    expect(overlay.services.mongo!.environment).toHaveProperty('MONGO_TUBER_TEST_PASSWORD');
    expect(read('infra/redis/acl.sh')).toContain('REDIS_TUBER_TEST_PASSWORD');
    expect(read('infra/compose/mongo-users.js')).toContain('MONGO_TUBER_TEST_PASSWORD');
  });
});

// ---------- observability (docs/adr/0038) ----------

describe('docker-compose.yml: observability', () => {
  const collector = parse(read('infra/observability/otel-collector.yaml')) as {
    exporters: Record<string, { endpoint?: string }>;
    service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
  };
  const prometheus = parse(read('infra/observability/prometheus.yml')) as {
    scrape_configs: { job_name: string; dns_sd_configs?: { names: string[]; port: number }[]; static_configs?: { targets: string[] }[] }[];
  };

  it('mounts the configs it names, and the gateway sends its span records to the relay, which posts to the collector', () => {
    for (const name of ['otel-collector', 'jaeger', 'prometheus', 'grafana', 'gateway-spans']) {
      expect(services[name], name).toBeDefined();
      expect(
        services[name]!.volumes?.some((v) => v.startsWith('./infra/observability/')),
        `${name} reads its config from infra/observability`,
      ).toBe(true);
    }
    const [host = '', port = ''] = services.gateway!.environment!.GATEWAY_SPANS_ADDR!.split(':');
    expectServiceAddress('gateway GATEWAY_SPANS_ADDR', host, Number(port));
    expect(services.gateway!.depends_on?.[host]?.condition, 'nginx resolves the syslog host at start').toBe('service_healthy');
    expect(read('infra/gateway/default.conf.template')).toMatch(/access_log syslog:server=\$\{GATEWAY_SPANS_ADDR\},[^;]* tuber_span;/);
    expect(services['gateway-spans']!.environment!.OTLP_ENDPOINT).toBe('http://otel-collector:4318');
  });

  it('collector: OTLP in, traces to Jaeger, metrics to a Prometheus endpoint that Prometheus scrapes', () => {
    expect(collector.service.pipelines.traces).toMatchObject({ receivers: ['otlp'] });
    expect(collector.service.pipelines.metrics).toMatchObject({ receivers: ['otlp'], exporters: ['prometheus'] });
    const traceExporter = collector.service.pipelines.traces!.exporters[0]!;
    const [jaegerHost = '', jaegerPort = ''] = collector.exporters[traceExporter]!.endpoint!.split(':');
    expectServiceAddress('collector trace exporter', jaegerHost, Number(jaegerPort));
    expect(jaegerHost).toBe('jaeger');
    const metricsPort = Number(collector.exporters.prometheus!.endpoint!.split(':')[1]);
    const scraped = prometheus.scrape_configs.flatMap((job) => (job.static_configs ?? []).flatMap((c) => c.targets));
    expect(scraped).toContain(`otel-collector:${metricsPort}`);
    for (const target of scraped) {
      const [h = '', p = ''] = target.split(':');
      if (h !== 'localhost') expectServiceAddress(`prometheus target ${target}`, h, Number(p));
    }
  });

  it('Prometheus scrapes every service on METRICS_PORT 9464, each replica found by DNS', () => {
    for (const name of backendNames)
      expect(services[name]!.environment, `${name} telemetry settings`).toMatchObject({
        METRICS_PORT: '9464',
        METRICS_HOST: '0.0.0.0',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
      });
    const job = prometheus.scrape_configs.find((j) => j.job_name === 'services');
    expect(job?.dns_sd_configs?.[0]?.port).toBe(9464);
    expect([...(job?.dns_sd_configs?.[0]?.names ?? [])].sort()).toEqual([...backendNames].sort());
    for (const name of backendNames) expect(services[name]!.networks, `${name} shares data with Prometheus`).toContain('data');
  });

  it('Grafana is provisioned from files: data sources on compose services, the dashboard folder mounted', () => {
    const grafana = services.grafana!;
    expect(grafana.volumes).toEqual(
      expect.arrayContaining([
        './infra/observability/grafana/provisioning:/etc/grafana/provisioning:ro',
        './infra/observability/grafana/dashboards:/var/lib/grafana/dashboards:ro',
      ]),
    );
    const sources = parse(read('infra/observability/grafana/provisioning/datasources/datasources.yaml')) as {
      datasources: { type: string; url: string }[];
    };
    for (const source of sources.datasources) {
      const url = new URL(source.url);
      expectServiceAddress(`grafana data source ${source.type}`, url.hostname, Number(url.port));
    }
    const providers = parse(read('infra/observability/grafana/provisioning/dashboards/dashboards.yaml')) as {
      providers: { options: { path: string } }[];
    };
    expect(providers.providers[0]!.options.path).toBe('/var/lib/grafana/dashboards');
  });
});

// ---------- service images ----------

describe('services/<name>/Dockerfile', () => {
  for (const name of backendNames) {
    it(`${name}: builds in stages and runs dist/server.js as node, on its compose port, with a health check`, () => {
      const path = `services/${name}/Dockerfile`;
      const { globalArgs, stages } = parseDockerfile(read(path));
      expect(globalArgs.SERVICE).toBe(name);
      expect(stages.length).toBeGreaterThanOrEqual(2);
      for (const stage of stages) expect(stage.from).toBe('node:20-bookworm-slim');
      const runtime = stages.at(-1)!;
      const users = instructionsOf(runtime, 'USER').map((i) => i.args);
      expect(users.at(-1)).toBe('node');
      expect(
        instructionsOf(runtime, 'ENV')
          .map((i) => i.args)
          .join(' '),
      ).toMatch(/NODE_ENV=production/);
      expect(exposedPorts(path)).toEqual([Number(services[name]!.environment!.PORT)]);
      const health = instructionsOf(runtime, 'HEALTHCHECK').map((i) => i.args);
      expect(health).toHaveLength(1);
      expect(health[0]).toMatch(/CMD \["node",.*http:\/\/127\.0\.0\.1:'\+process\.env\.PORT\+'\/health/);
      expect(instructionsOf(runtime, 'CMD').map((i) => i.args)).toEqual(['["node", "dist/server.js"]']);
      expect(instructionsOf(runtime, 'WORKDIR').map((i) => expand(i.args, runtime.args))).toContain(`/app/services/${name}`);
      // The build compiles this service with tsc -b and keeps production dependencies only.
      const build = stages[0]!.instructions.map((i) => expand(i.args, stages[0]!.args)).join('\n');
      expect(build).toContain(`npx tsc -b services/${name}`);
      expect(build).toContain('npm prune --omit=dev');
    });
  }

  it('all of them share one shape, differing only in the service name and port', () => {
    const shapes = new Set(
      backendNames.map((name) =>
        read(`services/${name}/Dockerfile`).replaceAll(name, '<service>').replaceAll(String(BACKENDS[name]!.port), '<port>'),
      ),
    );
    expect(shapes.size).toBe(1);
  });

  it('copies only files that exist and that .dockerignore lets into the build context', () => {
    for (const pattern of ['**/node_modules', '**/dist', '**/*.tsbuildinfo', '.git', '.run', 'test-artifacts', '.env'])
      expect(ignorePatterns).toContain(pattern);
    for (const name of backendNames) {
      const { stages } = parseDockerfile(read(`services/${name}/Dockerfile`));
      for (const stage of stages) {
        for (const copy of instructionsOf(stage, 'COPY').filter((i) => !i.args.startsWith('--from'))) {
          const sources = copy.args
            .split(/\s+/)
            .filter((word) => !word.startsWith('--'))
            .slice(0, -1);
          for (const source of sources.map((s) => expand(s, stage.args))) {
            expect(exists(source), `${name}: COPY ${source} exists`).toBe(true);
            expect(ignoredByDocker(source), `${name}: COPY ${source} is not in .dockerignore`).toBe(false);
          }
        }
      }
    }
    expect(ignoredByDocker('services/media/node_modules/sharp')).toBe(true);
    expect(ignoredByDocker('services/media/dist/server.js')).toBe(true);
  });
});

describe('infra/compose/service-workspace.mjs', () => {
  const script = join(repo, 'infra/compose/service-workspace.mjs');

  /** A scratch copy of the root and workspace manifests, as the Dockerfile's first COPY lines make it. */
  function scratchWorkspace(service: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'tuber-image-'));
    for (const file of [
      'package.json',
      'package-lock.json',
      'contracts/package.json',
      'services/kit/package.json',
      `services/${service}/package.json`,
    ]) {
      cpSync(join(repo, file), join(dir, file));
    }
    return dir;
  }

  it('narrows the workspace to the service, the workspaces it imports and the compiler', { timeout: 30_000 }, () => {
    for (const name of backendNames) {
      const dir = scratchWorkspace(name);
      try {
        execFileSync('node', [script, 'narrow', `services/${name}`], { cwd: dir, stdio: 'pipe' });
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        expect(manifest.workspaces).toEqual(['contracts', 'services/kit', `services/${name}`]);
        expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['typescript', '@types/node']));
        expect(Object.keys(manifest.devDependencies).every((d: string) => d === 'typescript' || d.startsWith('@types/'))).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('refuses an install whose versions the root lockfile does not pin', { timeout: 30_000 }, () => {
    const dir = scratchWorkspace('catalog');
    try {
      execFileSync('node', [script, 'narrow', 'services/catalog'], { cwd: dir, stdio: 'pipe' });
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      const fastify = lock.packages['node_modules/fastify'];
      const installed = (version: string) =>
        writeFileSync(
          join(dir, 'node_modules/.package-lock.json'),
          JSON.stringify({ packages: { 'node_modules/fastify': { ...fastify, version } } }),
        );
      mkdirSync(join(dir, 'node_modules'));
      installed(fastify.version);
      expect(() => execFileSync('node', [script, 'verify'], { cwd: dir, stdio: 'pipe' })).not.toThrow();
      installed('0.0.1-not-locked');
      expect(() => execFileSync('node', [script, 'verify'], { cwd: dir, stdio: 'pipe' })).toThrow(/fastify@0\.0\.1-not-locked/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
