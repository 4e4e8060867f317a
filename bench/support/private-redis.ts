// A Redis server of the benchmark's own, for read models too big for the shared one: the local
// stack's Redis is capped at 256 MB with `noeviction` (infra/local/redis.sh), so a copy that does
// not fit fails with OOM and, while it is full, every service's Redis writes are refused too.
// This one listens on a free loopback port, keeps nothing on disk and ends with the benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../test/support/ports.js';
import { createClient } from 'redis';

export interface PrivateRedis {
  url: string;
  /** Bytes the server uses now (INFO memory used_memory). */
  usedMemory(): Promise<number>;
  stop(): Promise<void>;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export async function startPrivateRedis(options: { maxmemory: string }): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory',
      options.maxmemory,
      '--maxmemory-policy',
      'noeviction',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A benchmark that ends on an error must not leave the server behind.
  const orphan = () => child.kill();
  process.once('exit', orphan);
  const url = `redis://127.0.0.1:${port}`;
  for (let tries = 0; !(await listening(port)); tries++) {
    if (tries >= 50 || child.exitCode !== null) {
      child.kill();
      throw new Error(`the benchmark's own redis-server did not start on port ${port} (is redis-server installed?)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const client = createClient({ url });
  await client.connect();
  return {
    url,
    usedMemory: async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]),
    stop: async () => {
      await client.quit().catch(() => undefined);
      process.off('exit', orphan);
      child.kill('SIGTERM');
      await exited;
    },
  };
}
