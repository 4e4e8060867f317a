// The compose file as `docker compose` loads it (issue 23): compose-go with .env.example and the generated
// secrets, through infra/local/compose-check.sh. Before this, the file was only read by our own unit test
// (test/unit/compose.test.ts), which cannot see what the real loader refuses.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tuber-compose-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function check(file?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['infra/local/compose-check.sh', ...(file ? [file] : [])], { timeout: 600_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('docker-compose.yml through compose-go', () => {
  it('loads with no error and no warning, with every deployable unit and the data tier', async () => {
    const { code, stdout, stderr } = await check();
    expect(stderr.replace(/\[tuber\] building.*\n/, ''), 'the loader warned').toBe('');
    expect(code).toBe(0);
    const services = stdout.trim().split('\n').map((line) => line.split('\t')[0]);
    expect(services.length).toBeGreaterThanOrEqual(26);
    for (const unit of ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation', 'shell', 'landing', 'buyer', 'farmer', 'moderation-ui', 'gateway', 'mongo', 'nats', 'redis', 'minio', 'keycloak']) {
      expect(services, unit).toContain(unit);
    }
  }, 600_000);

  it('fails with the loader’s own error on a file it refuses (a service that depends on one that does not exist)', async () => {
    const broken = path.join(scratch, 'docker-compose.yml');
    const text = fs.readFileSync('docker-compose.yml', 'utf8').replace(/\nservices:\n/, '\nservices:\n  broken:\n    image: busybox:1.36\n    depends_on: [no-such-service]\n');
    expect(text).toContain('no-such-service');
    fs.writeFileSync(broken, text);
    const { code, stderr } = await check(broken);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/no-such-service/);
  }, 600_000);
});
