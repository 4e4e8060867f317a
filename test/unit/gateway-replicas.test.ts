// The gateway in front of service replicas (docs/adr/0039): `gateway.sh print` renders the config the
// local gateway runs. With REPLICAS=2 every service's upstream group lists both replicas (replica i on
// the port + 100*i), with REPLICAS unset one; the API locations retry on the next replica, but never
// send a POST or PATCH a replica already got (no `non_idempotent`) — except /api/profile/me, whose POST
// and PATCH are safe to repeat (ADR 0039 addendum). The retry rule is then run in a
// real nginx, in front of a replica that answers 503 and one that answers 200.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SERVICES = { auth: 4001, profile: 4002, catalog: 4003, media: 4004, nutrition: 4005, orders: 4006 } as const;

/** default.conf as gateway.sh renders it, with the default ports (not this checkout's .env). */
function render(replicas?: number): string {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.REPLICAS;
  if (replicas !== undefined) env.REPLICAS = String(replicas);
  for (const [name, port] of Object.entries(SERVICES)) env[`${name.toUpperCase()}_PORT`] = String(port);
  return execFileSync('bash', [join(repo, 'infra/local/gateway.sh'), 'print'], { env, encoding: 'utf8' });
}

/** The body of `upstream NAME { ... }`. */
function upstream(conf: string, name: string): string {
  const found = new RegExp(`upstream ${name} \\{([^}]*)\\}`).exec(conf);
  expect(found, `upstream ${name}`).not.toBeNull();
  return found![1]!;
}
const servers = (block: string) =>
  [...block.matchAll(/^\s*server\s+(\S+)([^;]*);/gm)].map((m) => ({ address: m[1]!, params: m[2]!.trim() }));

/** The directives of the `location /api/ { ... }` block itself (not its nested locations). */
function apiDirectives(conf: string): string[] {
  const start = conf.indexOf('location /api/ {');
  expect(start).toBeGreaterThan(0);
  const lines: string[] = [];
  let depth = 0;
  for (const line of conf.slice(start).split('\n')) {
    const before = depth;
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
    if (before === 1 && !line.includes('{') && line.trim() && !line.trim().startsWith('#')) lines.push(line.trim());
    if (depth === 0 && before > 0) break;
  }
  return lines;
}

describe('gateway upstreams for service replicas', () => {
  it('lists two servers per service with REPLICAS=2, replica 1 on the port + 100, with the same failure settings', () => {
    const conf = render(2);
    for (const [name, port] of Object.entries(SERVICES)) {
      const block = upstream(conf, `tuber_${name}`);
      expect(servers(block), name).toEqual([
        { address: `127.0.0.1:${port}`, params: 'max_fails=2 fail_timeout=5s' },
        { address: `127.0.0.1:${port + 100}`, params: 'max_fails=2 fail_timeout=5s' },
      ]);
      expect(block, `${name} keeps idle connections`).toMatch(/keepalive \d+;/);
      expect(conf, `/api/${name}/ goes through the group`).toMatch(
        new RegExp(`location /api/${name}/\\s+\\{ proxy_pass http://tuber_${name}; \\}|proxy_pass http://tuber_${name};`),
      );
    }
    // No service is reached except through its group.
    expect(conf).not.toMatch(/proxy_pass http:\/\/127\.0\.0\.1:40\d\d/);
  });

  it('lists one server per service when REPLICAS is unset (the stack as before)', () => {
    const conf = render();
    for (const [name, port] of Object.entries(SERVICES))
      expect(servers(upstream(conf, `tuber_${name}`)).map((s) => s.address)).toEqual([`127.0.0.1:${port}`]);
    expect(render(1)).toBe(conf);
  });

  it('refuses a REPLICAS that is not 1 to 9', () => {
    expect(() =>
      execFileSync('bash', [join(repo, 'infra/local/gateway.sh'), 'print'], { env: { ...process.env, REPLICAS: 'two' }, stdio: 'pipe' }),
    ).toThrow(/REPLICAS must be a whole number/);
  });

  it('retries on the next replica for errors, timeouts, 502 and 503, and never re-sends a request a replica already got unless nginx may (non_idempotent only for my profile)', () => {
    const conf = render(2);
    const api = apiDirectives(conf);
    expect(api).toContain('proxy_next_upstream error timeout http_502 http_503;');
    expect(api.some((d) => /^proxy_next_upstream_tries [2-9];$/.test(d))).toBe(true);
    // Sent again after a replica got it: only in the one location whose POST and PATCH are safe to repeat.
    const resent = conf.split('\n').filter((line) => /^\s*proxy_next_upstream\b[^;]*non_idempotent/.test(line));
    expect(resent).toHaveLength(1);
    const profileMe = conf.slice(conf.indexOf('location = /api/profile/me {'));
    expect(profileMe.slice(0, profileMe.indexOf('}'))).toMatch(/proxy_next_upstream error timeout http_502 http_503 non_idempotent;/);
    // Keep-alive needs HTTP/1.1 and no "Connection: close" towards the upstream.
    expect(conf).toMatch(/proxy_http_version 1\.1;/);
    expect(conf).toMatch(/proxy_set_header Connection "";/);
  });
});

describe('compose: replicas per service', () => {
  it('runs REPLICAS (default 1) of each service, and the gateway names the service, which resolves to every replica', () => {
    const compose = parse(readFileSync(join(repo, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<
        string,
        { deploy?: { replicas?: unknown }; environment?: Record<string, string>; ports?: unknown; container_name?: string }
      >;
    };
    const gateway = compose.services.gateway!.environment!;
    for (const [name, port] of Object.entries(SERVICES)) {
      const service = compose.services[name]!;
      expect(service.deploy?.replicas, name).toBe('${REPLICAS:-1}');
      // Replicas share nothing a second copy would clash on: no fixed container name, no host port.
      expect(service.container_name, name).toBeUndefined();
      expect(service.ports, name).toBeUndefined();
      expect(gateway[`${name.toUpperCase()}_UPSTREAM`], name).toBe(`${name}:${port}`);
    }
  });
});

// ---------- the retry rule in a real nginx ----------

const cleanups: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe('the rendered retry rule in nginx', () => {
  it('sends a GET that a replica answered 503 to the other replica, and answers a POST with that 503 without re-sending it', async () => {
    const conf = render(2);
    const hits: string[] = [];
    const failing = await listen((req, res) => {
      hits.push(`failing ${req.method}`);
      req.resume();
      req.on('end', () => res.writeHead(503, { 'content-type': 'application/json' }).end('{"statusCode":503}'));
    });
    const healthy = await listen((req, res) => {
      hits.push(`healthy ${req.method}`);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    cleanups.push(
      () => void failing.server.close(),
      () => void healthy.server.close(),
    );
    const gatewayPort = await listen(() => undefined).then(({ server, port }) => new Promise<number>((r) => server.close(() => r(port))));

    // The catalog's group as rendered, pointed at the two stand-in replicas (failing one first: nginx
    // starts its round robin there), and the /api/ location's retry directives; a group per method so
    // each request meets the failing replica first.
    const group = upstream(conf, 'tuber_catalog')
      .replace('127.0.0.1:4003', `127.0.0.1:${failing.port}`)
      .replace('127.0.0.1:4103', `127.0.0.1:${healthy.port}`);
    const retry = apiDirectives(conf).filter((d) => d.startsWith('proxy_next_upstream'));
    const dir = mkdtempSync(join(tmpdir(), 'gateway-replicas-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, 'nginx.conf'),
      `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream for_get {${group}}
  upstream for_post {${group}}
  server {
    listen 127.0.0.1:${gatewayPort};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    ${retry.join('\n    ')}
    location = /up { return 204; }
    location /get { proxy_pass http://for_get; }
    location /post { proxy_pass http://for_post; }
  }
}
`,
    );
    const nginx = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
    cleanups.push(() => void nginx.kill('SIGTERM'));
    const base = `http://127.0.0.1:${gatewayPort}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/up`).then(
          (r) => r.status === 204,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const get = await fetch(`${base}/get`);
    expect(get.status).toBe(200);
    const post = await fetch(`${base}/post`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(503);
    expect(await post.json()).toEqual({ statusCode: 503 });
    expect(
      hits.filter((h) => h.endsWith('POST')),
      'the POST reached one replica only',
    ).toEqual(['failing POST']);
    expect(
      hits.filter((h) => h.endsWith('GET')),
      'the GET was tried on the other replica',
    ).toEqual(['failing GET', 'healthy GET']);
  });
});
