// Services trust only the gateway's hop: request.ip is the address the gateway saw, whatever a
// client writes in X-Forwarded-For, and a peer that is not the gateway cannot claim anything.
// Real sockets: the gateway is 127.0.0.1, "someone else" connects from 127.0.0.2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceApp, type ServiceApp } from '../../src/index.js';
import { gatewayTrust } from '../../src/app.js';

let app: ServiceApp;
let port: number;

beforeAll(async () => {
  app = await createServiceApp({ name: 'demo', logLevel: 'silent', trustedProxies: '127.0.0.1' });
  app.get('/api/demo/ip', async (req) => ({ ip: req.ip }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => app?.close());

function ipSeen(from: string, forwardedFor?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/demo/ip',
        localAddress: from,
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve((JSON.parse(body) as { ip: string }).ip));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('client address', () => {
  it('is the address the gateway saw (the last X-Forwarded-For entry), not what the client wrote before it', async () => {
    expect(await ipSeen('127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // The gateway appended the browser's address to a header the client forged.
    expect(await ipSeen('127.0.0.1', '6.6.6.6, 10.0.0.1, 203.0.113.9')).toBe('203.0.113.9');
    // A client on the gateway's own machine cannot pass for another by forging the header.
    expect(await ipSeen('127.0.0.1', '6.6.6.6, 127.0.0.1')).toBe('127.0.0.1');
  });

  it('is the peer itself when the peer is not the gateway, whatever X-Forwarded-For says', async () => {
    expect(await ipSeen('127.0.0.2', '203.0.113.9')).toBe('127.0.0.2');
    expect(await ipSeen('127.0.0.2')).toBe('127.0.0.2');
  });

  it('takes the gateway addresses from configuration: IPs and CIDR ranges, v4 and v6; nonsense stops the start', () => {
    const trust = gatewayTrust('172.20.0.0/16, ::1, 10.1.2.3');
    expect(trust('172.20.9.9', 0)).toBe(true);
    expect(trust('::ffff:172.20.9.9', 0)).toBe(true);
    expect(trust('::1', 0)).toBe(true);
    expect(trust('10.1.2.3', 0)).toBe(true);
    expect(trust('10.1.2.4', 0)).toBe(false);
    // Only the gateway's own hop counts, never one further left.
    expect(trust('172.20.9.9', 1)).toBe(false);
    expect(() => gatewayTrust('gateway')).toThrow('TRUSTED_PROXIES: "gateway" is not an IP address or CIDR range.');
  });
});
