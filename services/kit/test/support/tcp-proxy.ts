// A TCP relay in front of a real server (Redis, NATS, FerretDB), so a test can take the server
// away from one app and bring it back, without stopping the server everyone else uses: `cut` is a
// server that is down (connections dropped and refused), `freeze` one that is paused (SIGSTOP:
// connections stay open and accepted, nothing is answered).
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** The URL with host and port replaced by the relay's (user information kept). */
  url(target: string): string;
  /** Drops every connection and refuses new ones: the server looks down. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  /** Keeps every connection open and accepts new ones, but forwards nothing: the server looks paused. */
  freeze(): void;
  /** Forwards again what was held, as a resumed server would answer. */
  thaw(): void;
  close(): Promise<void>;
}

export async function tcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  let server: Server;
  let port = 0;
  const join = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream).pipe(client);
  };
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      const pair: [Socket, Socket] = [client, upstream];
      for (const s of pair) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      pairs.add(pair);
      if (frozen) {
        client.pause();
        upstream.pause();
      } else join(pair);
      client.on('close', () => {
        upstream.destroy();
        pairs.delete(pair);
      });
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    for (const s of sockets) s.destroy();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    url(target) {
      const parsed = new URL(target);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut: stop,
    restore: async () => {
      if (!server.listening) await listen();
    },
    freeze() {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) join(pair);
    },
    close: stop,
  };
}
