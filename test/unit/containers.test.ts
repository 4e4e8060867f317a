// The container path of the test infrastructure (test/support/containers.ts, docs/adr/0028) cannot
// run here: no Docker engine answers on our machines. What can be checked without one is checked:
// the two compose files parse and name every service the entry starts and waits for, each waited
// service has a health check to wait on and a published loopback port, the one-shot set-up
// containers do not restart, and without an engine the entry stops at once saying what to do.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  COMPOSE_FILES,
  HEALTHY_SERVICES,
  INFRA_SERVICES,
  NO_ENGINE,
  ONE_SHOT_SERVICES,
  PROJECT_NAME,
  ROOT,
  containerName,
  testInfrastructure,
} from '../support/containers.js';

interface Service {
  image?: string;
  restart?: string;
  healthcheck?: { test?: unknown; disable?: boolean };
  ports?: string[];
}
const [base, override] = COMPOSE_FILES.map(
  // maxAliasCount: our own files, whose shared blocks are merged into more services than the YAML library allows by default.
  (file) =>
    parse(readFileSync(join(ROOT, file), 'utf8'), { merge: true, maxAliasCount: -1 }) as {
      name?: string;
      services: Record<string, Service>;
    },
);
/** Compose's merge of the override into the base file for the fields checked here (ports add up). */
const merged = (name: string): Service => {
  const a = base!.services[name] ?? {};
  const b = override!.services[name] ?? {};
  return { ...a, ...b, ports: [...(a.ports ?? []), ...(b.ports ?? [])] };
};

const engineAnswers = await promisify(execFile)('docker', ['info'], { timeout: 10_000 }).then(
  () => true,
  () => false,
);

describe('the compose files the container path starts', () => {
  it('are the ops file and the test override, both found and parsed', () => {
    expect(COMPOSE_FILES).toEqual(['docker-compose.yml', 'infra/compose/test-infra.yml']);
    expect(Object.keys(base!.services).length).toBeGreaterThan(10);
    expect(Object.keys(override!.services).length).toBeGreaterThan(0);
  });

  it('name every service the entry starts, and the override changes no other', () => {
    for (const service of INFRA_SERVICES) expect(Object.keys(base!.services), service).toContain(service);
    for (const service of Object.keys(override!.services)) expect(INFRA_SERVICES, service).toContain(service);
  });

  it('give every server the entry waits for a health check and a port on the loopback address', () => {
    for (const service of HEALTHY_SERVICES) {
      const definition = merged(service);
      expect(definition.healthcheck?.test, `${service} health check`).toBeDefined();
      expect(definition.healthcheck?.disable, service).not.toBe(true);
      expect(definition.ports?.length, `${service} ports`).toBeGreaterThan(0);
      for (const port of definition.ports ?? []) expect(port, service).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    }
  });

  it('have one-shot set-up containers that run once (the entry waits for their exit code 0)', () => {
    for (const service of ONE_SHOT_SERVICES) {
      expect(merged(service).restart, service).toBe('no');
      expect(merged(service).healthcheck, service).toBeUndefined();
    }
  });

  it('wait on each server by its compose health check, matched by the container name compose gives it', () => {
    const strategies = (testInfrastructure() as unknown as { waitStrategy: Record<string, { constructor: { name: string } }> })
      .waitStrategy;
    expect(Object.keys(strategies).sort()).toEqual(HEALTHY_SERVICES.map(containerName).sort());
    for (const strategy of Object.values(strategies)) expect(strategy.constructor.name).toBe('HealthCheckWaitStrategy');
  });

  it('run as a project of their own, never the ops stack', () => {
    expect(base!.name).toBe('tuber-market');
    expect(PROJECT_NAME).not.toBe(base!.name);
  });
});

describe('the entry without a Docker engine', () => {
  it.skipIf(engineAnswers)(
    'stops at once with a message saying what to do',
    async () => {
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/containers.ts'], {
        cwd: ROOT,
        timeout: 30_000,
      });
      const failure = (await run.then(
        () => undefined,
        (err: unknown) => err,
      )) as { code?: number; stderr?: string } | undefined;
      expect(failure, 'the entry should have failed').toBeDefined();
      expect(failure!.code).toBe(1);
      expect(failure!.stderr).toContain(NO_ENGINE);
      expect(failure!.stderr).toContain('TUBER_INFRA=local');
    },
    40_000,
  );
});
