// The gateway in front of service replicas (docs/adr/0039): `gateway.sh print` renders the config the
// local gateway runs. With REPLICAS=2 every service's upstream group lists both replicas (replica i on
// the port + 100*i), with REPLICAS unset one; the API locations retry on the next replica, but never
// send a POST or PATCH a replica already got (no `non_idempotent`) — except /api/profile/me, whose POST
// and PATCH are safe to repeat (ADR 0039 addendum), and a product post with an Idempotency-Key (ADR 0059).
// The retry rules are then run in a real nginx, in front of a replica that answers 503 (or dies with the
// request in hand) and one that answers 200.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SERVICES = { auth: 4001, profile: 4002, catalog: 4003, media: 4004, nutrition: 4005, orders: 4006, moderation: 4007 } as const;

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

/** The whole block that opens on the line `opening` (e.g. "location = /api/profile/me {"), braces balanced. */
function block(conf: string, opening: string): string {
  const start = conf.indexOf(opening);
  expect(start, opening).toBeGreaterThan(0);
  let depth = 0;
  for (let i = start; i < conf.length; i++) {
    if (conf[i] === '{') depth++;
    if (conf[i] === '}' && --depth === 0) return conf.slice(start, i + 1);
  }
  throw new Error(`unbalanced: ${opening}`);
}

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

  it('retries on the next replica for errors, timeouts, 502 and 503, and never re-sends a request a replica already got unless nginx may (non_idempotent only for my profile and keyed product posts)', () => {
    const conf = render(2);
    const api = apiDirectives(conf);
    expect(api).toContain('proxy_next_upstream error timeout http_502 http_503;');
    expect(api.some((d) => /^proxy_next_upstream_tries [2-9];$/.test(d))).toBe(true);
    // Sent again after a replica got it: only in the two locations whose requests are safe to repeat.
    const resent = conf.split('\n').filter((line) => /^\s*proxy_next_upstream\b[^;]*non_idempotent/.test(line));
    expect(resent).toHaveLength(2);
    expect(block(conf, 'location = /api/profile/me {')).toMatch(/proxy_next_upstream error timeout http_502 http_503 non_idempotent;/);
    // A product post goes there only with an Idempotency-Key (ADR 0059); the place is internal, not an address.
    expect(conf).toMatch(
      /map "\$request_method:\$http_idempotency_key" \$tuber_keyed_product_post \{\s*"~\^POST:\."\s+1;\s*default\s+"";\s*\}/,
    );
    const posts = block(conf, 'location = /api/catalog/products {');
    expect(posts).toMatch(/if \(\$tuber_keyed_product_post\) \{ rewrite \^ \/api\/catalog\/products\/_keyed_post last; \}/);
    expect(posts).not.toMatch(/non_idempotent/);
    const keyed = block(conf, 'location = /api/catalog/products/_keyed_post {');
    expect(keyed).toMatch(/^\s*internal;$/m);
    expect(keyed).toMatch(/proxy_next_upstream error timeout http_502 http_503 non_idempotent;/);
    expect(keyed).toMatch(/proxy_pass http:\/\/tuber_catalog\/api\/catalog\/products;/);
    // Both nested in /api/: its limits and error pages apply to product posts as before.
    expect(block(conf, 'location /api/ {')).toContain(keyed);
    // Keep-alive needs HTTP/1.1 and no "Connection: close" towards the upstream.
    expect(conf).toMatch(/proxy_http_version 1\.1;/);
    expect(conf).toMatch(/proxy_set_header Connection "";/);
  });
});

describe('compose: replicas per service', () => {
  it('runs REPLICAS (default 1) of each service, and the gateway names the service, which resolves to every replica', () => {
    // maxAliasCount: our own file, whose shared blocks are merged into more services than the YAML library allows by default.
    const compose = parse(readFileSync(join(repo, 'docker-compose.yml'), 'utf8'), { merge: true, maxAliasCount: -1 }) as {
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

/** A stand-in replica that records `<name> <METHOD> <url>` and answers as `answer` does. */
async function standIn(
  name: string,
  hits: string[],
  answer: (res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void,
) {
  const replica = await listen((req, res) => {
    hits.push(`${name} ${req.method} ${req.url}${req.headers['idempotency-key'] ? ` key ${req.headers['idempotency-key']}` : ''}`);
    req.resume();
    req.on('end', () => answer(res, req));
  });
  cleanups.push(() => void replica.server.close());
  return replica;
}
const answering = (status: number, body: string) => (res: import('node:http').ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
/** A replica killed with the request in hand: the connection goes without an answer. */
const dying = (_res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => req.socket.destroy();

/** A real nginx with `http` inside its http block (and `server` inside its one server); answers its base URL. */
async function startNginx(http: string, server: string): Promise<string> {
  const port = await listen(() => undefined).then(({ server: s, port: p }) => new Promise<number>((r) => s.close(() => r(p))));
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
  ${http}
  server {
    listen 127.0.0.1:${port};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    location = /up { return 204; }
    ${server}
  }
}
`,
  );
  const nginx = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  cleanups.push(() => void nginx.kill('SIGTERM'));
  const base = `http://127.0.0.1:${port}`;
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
  return base;
}

/** The catalog's group as rendered, pointed at two stand-ins (the first first: nginx starts its round robin there). */
const catalogGroup = (conf: string, first: number, second: number) =>
  upstream(conf, 'tuber_catalog').replace('127.0.0.1:4003', `127.0.0.1:${first}`).replace('127.0.0.1:4103', `127.0.0.1:${second}`);

describe('the rendered retry rule in nginx', () => {
  it('sends a GET that a replica answered 503 to the other replica, and answers a POST with that 503 without re-sending it', async () => {
    const conf = render(2);
    const hits: string[] = [];
    const failing = await standIn('failing', hits, answering(503, '{"statusCode":503}'));
    const healthy = await standIn('healthy', hits, answering(200, '{"ok":true}'));
    // The /api/ location's retry directives; a group per method so each request meets the failing replica first.
    const group = catalogGroup(conf, failing.port, healthy.port);
    const retry = apiDirectives(conf).filter((d) => d.startsWith('proxy_next_upstream'));
    const base = await startNginx(
      `upstream for_get {${group}}
  upstream for_post {${group}}`,
      `${retry.join('\n    ')}
    location /get { proxy_pass http://for_get; }
    location /post { proxy_pass http://for_post; }`,
    );
    const get = await fetch(`${base}/get`);
    expect(get.status).toBe(200);
    const post = await fetch(`${base}/post`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(503);
    expect(await post.json()).toEqual({ statusCode: 503 });
    expect(
      hits.filter((h) => h.includes(' POST ')),
      'the POST reached one replica only',
    ).toEqual(['failing POST /post']);
    expect(
      hits.filter((h) => h.includes(' GET ')),
      'the GET was tried on the other replica',
    ).toEqual(['failing GET /get', 'healthy GET /get']);
  });

  it('sends a product post with an Idempotency-Key that a dying replica took to the other replica; one without the key is answered 502 (ADR 0059)', async () => {
    const conf = render(2);
    // The rendered map and the /api/ location's retry directives and product-post locations, as nested there.
    const map = block(conf, 'map "$request_method:$http_idempotency_key" $tuber_keyed_product_post {');
    const retry = apiDirectives(conf).filter((d) => d.startsWith('proxy_next_upstream'));
    const locations = [block(conf, 'location = /api/catalog/products {'), block(conf, 'location = /api/catalog/products/_keyed_post {')];
    const post = async (headers: Record<string, string>) => {
      const hits: string[] = [];
      const killed = await standIn('killed', hits, dying);
      const healthy = await standIn('healthy', hits, answering(201, '{"product_id":"p1"}'));
      // A gateway of its own per post: each post meets the dying replica first.
      const base = await startNginx(
        `${map}
  upstream tuber_catalog {${catalogGroup(conf, killed.port, healthy.port)}}`,
        `location /api/ {
      ${retry.join('\n      ')}
      ${locations.join('\n      ')}
    }`,
      );
      const answer = await fetch(`${base}/api/catalog/products`, {
        method: 'POST',
        body: '{"product_name":"Yam"}',
        headers: { 'content-type': 'application/json', ...headers },
      });
      return { status: answer.status, body: await answer.text(), hits };
    };

    const keyed = await post({ 'idempotency-key': '"8e03978e40d543e8bc936894a57f9324"' });
    expect(keyed.status, keyed.body).toBe(201);
    expect(keyed.body).toBe('{"product_id":"p1"}');
    // The service sees its own path (never the internal one) and the key, on both tries.
    expect(keyed.hits).toEqual([
      'killed POST /api/catalog/products key "8e03978e40d543e8bc936894a57f9324"',
      'healthy POST /api/catalog/products key "8e03978e40d543e8bc936894a57f9324"',
    ]);

    const unkeyed = await post({});
    expect(unkeyed.status).toBe(502);
    expect(unkeyed.hits, 'a post without the key reached one replica only').toEqual(['killed POST /api/catalog/products']);
  });
});
