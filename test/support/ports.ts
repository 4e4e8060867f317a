// A loopback port nothing listens on right now, for a server a test or benchmark starts itself
// (the kernel picks it; another process could still take it before ours binds, which is rare).
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
