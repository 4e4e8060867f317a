// Which server versions each way of running the product uses (issue 23): infra/versions.json records the
// local server and the compose and Helm images side by side, with why they differ. This holds the record
// to what runs: the local servers' own version output, docker-compose.yml as compose-go loads it, and the
// Helm values. The pairs are printed, so a CI log names the local versions the tests ran against.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
interface Server {
  local: string | null;
  localFrom: string;
  compose: string;
  helm?: string;
  why?: string;
}
const record = JSON.parse(fs.readFileSync(path.join(root, 'infra/versions.json'), 'utf8')) as { servers: Record<string, Server> };

const output = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const scriptVar = (script: string, name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(fs.readFileSync(path.join(root, 'infra/local', script), 'utf8'))?.[1];

/** What this machine runs, as each server says it (or as the script that builds it pins it). */
function localVersions(): Record<string, string> {
  const nginx = execFileSync('bash', ['-c', 'nginx -v 2>&1'], { encoding: 'utf8' });
  const pgMajor = fs.readdirSync('/usr/lib/postgresql').sort().pop()!;
  const postgres = /\(PostgreSQL\) (\d+)/.exec(output(`/usr/lib/postgresql/${pgMajor}/bin/postgres`, ['--version']))?.[1];
  return {
    nats: /v?(\d+\.\d+\.\d+)/.exec(output('nats-server', ['--version']))![1]!,
    redis: /v=(\d+\.\d+\.\d+)/.exec(output('redis-server', ['--version']))![1]!,
    mongodb: `FerretDB ${scriptVar('ferretdb.sh', 'FERRETDB_VERSION')} on PostgreSQL ${postgres}`,
    minio: scriptVar('minio.sh', 'MINIO_VERSION')!,
    keycloak: scriptVar('keycloak.sh', 'KEYCLOAK_VERSION')!,
    mailpit: scriptVar('mailpit.sh', 'MAILPIT_VERSION')!,
    jaeger: scriptVar('jaeger.sh', 'JAEGER_VERSION')!,
    gateway: /nginx\/(\d+\.\d+\.\d+)/.exec(nginx)![1]!,
  };
}

function composeImages(...envFiles: string[]): Promise<Record<string, string>> {
  const args = envFiles.length ? [path.join(root, 'docker-compose.yml'), ...envFiles] : [];
  return new Promise((resolve, reject) => {
    execFile('bash', [path.join(root, 'infra/local/compose-check.sh'), ...args], { timeout: 600_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`compose-check failed: ${stderr}`));
      resolve(Object.fromEntries(stdout.trim().split('\n').map((line) => line.split('\t') as [string, string])));
    });
  });
}

describe('server versions: local, compose and Helm (infra/versions.json)', () => {
  it('the local servers are the versions recorded', () => {
    const running = localVersions();
    const pairs = Object.entries(record.servers).map(([name, server]) => `${name}: local ${server.local ?? '—'} / compose ${server.compose}${server.helm ? ` / helm ${server.helm}` : ''}`);
    console.log(`server versions (local / compose / helm):\n  ${pairs.join('\n  ')}`);
    for (const [name, version] of Object.entries(running)) expect(version, name).toBe(record.servers[name]!.local);
  });

  it('docker-compose.yml names the images recorded (as compose-go loads it)', async () => {
    const images = await composeImages();
    const composeName: Record<string, string> = { mongodb: 'mongo', 'otel-collector': 'otel-collector' };
    for (const [name, server] of Object.entries(record.servers)) expect(images[composeName[name] ?? name], name).toBe(server.compose);
  }, 600_000);

  it("with infra/compose/release.env, each unit's image is its release (releases.json)", async () => {
    const images = await composeImages(path.join(root, 'infra/compose/release.env'));
    const units = (JSON.parse(fs.readFileSync(path.join(root, 'releases.json'), 'utf8')) as { units: Record<string, { version: string }> }).units;
    for (const name of ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation', 'shell', 'landing', 'buyer', 'farmer', 'moderation-ui']) {
      expect(images[name], name).toBe(`tuber/${name}:${units[name]!.version}`);
    }
    expect((await composeImages())['auth'], 'a local build').toBe('tuber/auth:dev');
  }, 600_000);

  it('the Helm values name the images recorded', () => {
    const values = parse(fs.readFileSync(path.join(root, 'infra/helm/tuber/values.yaml'), 'utf8')) as Record<string, any>;
    const image = (i: { repository: string; tag: string }) => `${i.repository}:${i.tag}`;
    expect(image(values.gateway.image)).toBe(record.servers.gateway!.helm);
    expect(image(values.observability.collector.image)).toBe(record.servers['otel-collector']!.helm);
  });

  it('says why wherever local and compose differ', () => {
    for (const [name, server] of Object.entries(record.servers)) {
      const tag = server.compose.split(':').pop()!.replace(/-alpine$/, '');
      const same = server.local !== null && (server.local === tag || server.local.replace(/^v/, '') === tag.replace(/^v/, ''));
      if (!same) expect(server.why, `${name}: local ${server.local} and compose ${server.compose} differ`).toBeTruthy();
    }
  });
});
