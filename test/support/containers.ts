// The container path of the test infrastructure (docs/adr/0011, docs/adr/0028): when a Docker
// engine answers, test/run.sh starts the compose file's infrastructure services through
// testcontainers' Docker Compose support instead of the locally installed servers.
//
//   node --import tsx test/support/containers.ts [--ready-file <path>]
//
// Starts mongo, nats, redis, minio, keycloak, mailpit and sms-catcher from docker-compose.yml with
// infra/compose/test-infra.yml (their ports on the local loopback ports, the tests' own users),
// waits until each one's compose health check passes and the one-shot set-up containers
// (minio-init, keycloak-provision) have finished with exit code 0, writes the ready file, and
// stays in the foreground. SIGTERM or SIGINT takes everything down with its volumes. Should this
// process die instead, testcontainers' reaper removes the containers on its own.
// The secrets the compose files ask for come from the environment (test/run.sh sets them from
// `bash infra/compose/secrets.sh --test`).
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DockerComposeEnvironment, Wait, getContainerRuntimeClient, type StartedDockerComposeEnvironment } from 'testcontainers';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The ops compose file, then the tests' override (published loopback ports, test users). */
export const COMPOSE_FILES = ['docker-compose.yml', 'infra/compose/test-infra.yml'];
/** Servers the tests use, each waited for until its compose health check passes (NATS is a 3-node cluster, ADR 0040). */
export const HEALTHY_SERVICES = [
  'mongo',
  'nats',
  'nats-2',
  'nats-3',
  'redis',
  'redis-readmodel',
  'minio',
  'keycloak',
  'mailpit',
  'sms-catcher',
] as const;
/** One-shot set-up containers (bucket and MinIO user; Keycloak's admins and realm): must exit 0. */
export const ONE_SHOT_SERVICES = ['minio-init', 'keycloak-provision'] as const;
export const INFRA_SERVICES = [...HEALTHY_SERVICES, ...ONE_SHOT_SERVICES];
/** Keycloak's first start (realm import, health start period 60 s) is the slowest. */
export const STARTUP_TIMEOUT_MS = 300_000;
/** Its own project, so `down -v` never touches an ops stack (`tuber-market`) on the same engine. */
export const PROJECT_NAME = 'tuber-test-infra';

/** Compose names a service's first container `<service>-1`; testcontainers matches wait strategies on that. */
export const containerName = (service: string) => `${service}-1`;

/** The compose environment: both files, every long-running server waited for by its health check. */
export function testInfrastructure(root = ROOT): DockerComposeEnvironment {
  let environment = new DockerComposeEnvironment(root, COMPOSE_FILES).withProjectName(PROJECT_NAME).withStartupTimeout(STARTUP_TIMEOUT_MS);
  for (const service of HEALTHY_SERVICES) environment = environment.withWaitStrategy(containerName(service), Wait.forHealthCheck());
  return environment;
}

export const NO_ENGINE =
  'No Docker engine answers, so the test infrastructure cannot run in containers. Start Docker, or run the tests on the locally installed servers: TUBER_INFRA=local make test.';

/** The engine testcontainers found, or an error a person can act on. */
export async function dockerEngine() {
  try {
    return await getContainerRuntimeClient();
  } catch (err) {
    throw new Error(`${NO_ENGINE} (testcontainers: ${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Waits for each one-shot container to finish; any exit code but 0 fails the start with its last log lines. */
async function oneShotsFinished(engine: Awaited<ReturnType<typeof dockerEngine>>): Promise<void> {
  const containers = await engine.container.dockerode.listContainers({
    all: true,
    filters: { label: [`com.docker.compose.project=${PROJECT_NAME}`] },
  });
  await Promise.all(
    ONE_SHOT_SERVICES.map(async (service) => {
      const info = containers.find((c) => c.Labels['com.docker.compose.service'] === service);
      if (!info) throw new Error(`${service} was not started by docker compose`);
      const container = engine.container.dockerode.getContainer(info.Id);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${service} did not finish within ${STARTUP_TIMEOUT_MS / 1000} s`)), STARTUP_TIMEOUT_MS);
      });
      const { StatusCode } = (await Promise.race([container.wait(), timeout]).finally(() => clearTimeout(timer))) as { StatusCode: number };
      if (StatusCode !== 0) {
        const logs = (await container.logs({ stdout: true, stderr: true, tail: 20 })).toString('utf8');
        throw new Error(`${service} exited with code ${StatusCode}; its last lines:\n${logs}`);
      }
    }),
  );
}

/** Starts the infrastructure and resolves once every server is healthy and every one-shot succeeded. */
export async function startTestInfrastructure(root = ROOT): Promise<StartedDockerComposeEnvironment> {
  const engine = await dockerEngine();
  const started = await testInfrastructure(root)
    .up([...INFRA_SERVICES])
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      if (/Compose is not installed|unknown command/i.test(message)) {
        throw new Error(`Docker Compose v2 (the \`docker compose\` plugin) is needed for the container path: ${message}`);
      }
      throw new Error(`The test infrastructure did not start in containers: ${message}`);
    });
  try {
    await oneShotsFinished(engine);
  } catch (err) {
    await started.down({ removeVolumes: true }).catch(() => undefined);
    throw err;
  }
  return started;
}

async function main(argv: string[]): Promise<void> {
  const readyAt = argv.indexOf('--ready-file');
  const readyFile = readyAt >= 0 ? argv[readyAt + 1] : undefined;
  const run: { started?: StartedDockerComposeEnvironment; stopping: boolean } = { stopping: false };
  const stop = async () => {
    if (run.stopping) return;
    run.stopping = true;
    if (!run.started) {
      console.error("test infrastructure: interrupted while starting; testcontainers' reaper removes what was started");
      process.exit(1);
    }
    console.log('test infrastructure: taking the containers down');
    await run.started
      .down({ removeVolumes: true })
      .catch((err: unknown) => console.error(`could not take the containers down: ${String(err)}`));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  console.log(`test infrastructure: starting ${INFRA_SERVICES.join(', ')} in containers (testcontainers, Docker Compose)`);
  run.started = await startTestInfrastructure();
  console.log('test infrastructure: every server is healthy');
  if (readyFile) writeFileSync(readyFile, `${process.pid}\n`);
  // Stays up until test/run.sh signals the end of the run.
  setInterval(() => undefined, 60_000);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
