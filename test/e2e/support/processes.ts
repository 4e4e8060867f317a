// Stops and starts one front end's static server during a browser test. The real interface is
// `bash infra/local/app.sh stop|start <name>`. Where that script does not exist, or with E2E_OWN_SERVERS=1
// (servers on other ports, e.g. beside a running stack), the helper runs sirv itself; it can only stop
// servers it started.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './browser.js';

/** A front end by its folder under frontends/ (a remote's name). */
export type FrontEnd = 'shell' | 'landing' | 'buyer' | 'farmer' | 'moderation';

const ports: Record<FrontEnd, number> = {
  shell: Number(process.env.SHELL_PORT ?? 3000),
  landing: Number(process.env.LANDING_PORT ?? 3001),
  buyer: Number(process.env.BUYER_PORT ?? 3002),
  farmer: Number(process.env.FARMER_PORT ?? 3003),
  moderation: Number(process.env.MODERATION_UI_PORT ?? 3004),
};

/** Its daemon in infra/local/app.sh: the folder's name, but moderation-ui for the desk (`moderation` is the service). */
const daemonOf = (name: FrontEnd) => (name === 'moderation' ? 'moderation-ui' : name);

const appScript = path.join(repoRoot, 'infra/local/app.sh');
const spawned = new Map<FrontEnd, ChildProcess>();
const useAppScript = () => process.env.E2E_OWN_SERVERS !== '1' && fs.existsSync(appScript);

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

export const isServing = (name: FrontEnd) => answers(`http://127.0.0.1:${ports[name]}/`);

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
}

function runAppScript(action: 'start' | 'stop' | 'restart', name: FrontEnd, env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [appScript, action, daemonOf(name)], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`infra/local/app.sh ${action} ${name} exited ${code}\n${output}`))));
  });
}

export async function startFrontEnd(name: FrontEnd): Promise<void> {
  if (useAppScript()) await runAppScript('start', name);
  else if (!(await isServing(name))) {
    const dist = path.join('frontends', name, 'dist');
    const args = [dist, ...(name === 'shell' ? ['--single'] : ['--cors']), '--port', String(ports[name]), '--quiet'];
    // Own process group, so stopping also ends the sirv child of npx-style wrappers.
    const child = spawn(path.join(repoRoot, 'node_modules/.bin/sirv'), args, { cwd: repoRoot, detached: true, stdio: 'ignore' });
    spawned.set(name, child);
  }
  await waitUntil(() => isServing(name), `${name} answers on port ${ports[name]}`);
}

export async function stopFrontEnd(name: FrontEnd): Promise<void> {
  if (useAppScript()) await runAppScript('stop', name);
  else {
    const child = spawned.get(name);
    if (!child?.pid) {
      if (await isServing(name)) throw new Error(`cannot stop ${name}: infra/local/app.sh is missing and the server on port ${ports[name]} was not started by these tests`);
      return;
    }
    process.kill(-child.pid, 'SIGTERM');
    spawned.delete(name);
  }
  await waitUntil(async () => !(await isServing(name)), `${name} stopped answering on port ${ports[name]}`);
}

/**
 * Serves another build of a front end on its usual port (a deploy, as far as the gateway can tell): `dist` is a
 * folder such as a released build from infra/release/build-frontends.sh; without it, this checkout's build.
 * Needs infra/local/app.sh.
 */
export async function serveFrontEnd(name: FrontEnd, dist?: string): Promise<void> {
  if (!fs.existsSync(appScript)) throw new Error('serving another build needs infra/local/app.sh');
  await runAppScript('restart', name, dist ? { [`TUBER_DIST_${daemonOf(name).replaceAll('-', '_')}`]: dist } : {});
  await waitUntil(() => isServing(name), `${name} answers on port ${ports[name]}`);
}

/** Ends the servers this helper started itself (fallback mode only). */
export function stopSpawnedFrontEnds(): void {
  for (const [name, child] of spawned) {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    spawned.delete(name);
  }
}
