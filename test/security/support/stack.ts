// The running stack as an attacker meets it (the gateway) and as the suite inspects it (secrets,
// pid files, the media database, MinIO, Keycloak's admin API on loopback).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as MinioClient } from 'minio';
import { mongoUrl } from '../../support/credentials.js';
import { PUBLIC_URL } from '../../support/env.js';

export { PUBLIC_URL };
export const ROOT = resolve(import.meta.dirname, '../../..');
export const STATE = resolve(ROOT, process.env.TUBER_STATE ?? '.run');
export const KEYCLOAK_DIRECT = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`;

/** The services, found from the source tree: a new service is covered without editing the suite. */
export const SERVICES = readdirSync(join(ROOT, 'services'))
  .filter((name) => existsSync(join(ROOT, 'services', name, 'src', 'server.ts')))
  .sort();

/** A generated secret from .run/secrets, or undefined. */
export function secret(name: string): string | undefined {
  const file = join(STATE, 'secrets', name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Every generated secret on this machine (name → value), for the secret scan. */
export function allSecrets(): Map<string, string> {
  const dir = join(STATE, 'secrets');
  const found = new Map<string, string>();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    const value = readFileSync(join(dir, name), 'utf8').trim();
    // Short values (a port, a user name like "media") would match everywhere and prove nothing.
    if (value.length >= 12) found.set(name, value);
  }
  return found;
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  /** A raw JSON text, for bodies JSON.stringify cannot make (a "__proto__" key). */
  rawJson?: string;
  form?: FormData;
  headers?: Record<string, string>;
  /**
   * On 429, wait as Retry-After says (at most ~65 s in all) and try again. The whole suite comes
   * from one address, so the per-address limits it proves elsewhere would otherwise decide
   * unrelated tests. Off for the rate-limit tests themselves. Never for a route's own 429s (PHONE_CODE_*).
   */
  retryOn429?: boolean;
}

/** One request through the gateway. */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const deadline = Date.now() + 70_000;
  for (;;) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.rawJson !== undefined) {
      headers['content-type'] = 'application/json';
      body = options.rawJson;
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) body = options.form;
    const response = await fetch(`${PUBLIC_URL}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    // Only the traffic limits: a 429 that is the route's own answer (an SMS code's minute or day, issue 26) is kept.
    const trafficLimit = !/"code":"PHONE_CODE/.test(text);
    if (response.status === 429 && trafficLimit && options.retryOn429 !== false && Date.now() < deadline) {
      const wait = Math.min(Number(response.headers.get('retry-after')) || 1, 65);
      await new Promise((r) => setTimeout(r, wait * 1000 + 250));
      continue;
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}

/** The product's error shape, with a message a person can act on. */
export function isErrorShape(body: unknown, status: number): boolean {
  const b = body as { statusCode?: unknown; error?: unknown; message?: unknown } | null;
  return !!b && b.statusCode === status && typeof b.error === 'string' && typeof b.message === 'string' && b.message.length > 0;
}

/** A token for Keycloak's admin REST API (master realm), reached on loopback, never through the gateway. */
export async function masterAdminToken(): Promise<string> {
  const tried: string[] = [];
  const candidates: { form: Record<string, string>; label: string }[] = [];
  const clients: [string | undefined, string | undefined][] = [
    [process.env.KEYCLOAK_ADMIN_CLIENT_ID, process.env.KEYCLOAK_ADMIN_CLIENT_SECRET],
    // The named admin client provisioning creates (infra/local/keycloak-provision.mjs).
    ['tuber-ops', secret('keycloak-ops-client-secret')],
  ];
  for (const [id, clientSecret] of clients) {
    if (id && clientSecret)
      candidates.push({ label: `client ${id}`, form: { grant_type: 'client_credentials', client_id: id, client_secret: clientSecret } });
  }
  for (const candidate of candidates) {
    const response = await fetch(`${KEYCLOAK_DIRECT}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(candidate.form),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string };
    if (body.access_token) return body.access_token;
    tried.push(`${candidate.label}: ${response.status}`);
  }
  throw new Error(`no Keycloak admin credentials worked (${tried.join('; ') || 'none found in .run/secrets'})`);
}

/** Keycloak's admin REST API for realm tuber, as the master admin. */
export async function realmAdmin<T = any>(
  method: string,
  path: string,
  json?: unknown,
): Promise<{ status: number; body: T; headers: Headers }> {
  const token = await masterAdminToken();
  const response = await fetch(`${KEYCLOAK_DIRECT}/admin/realms/${process.env.KEYCLOAK_REALM ?? 'tuber'}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** The pid of one of the product's daemons (infra/local/app.sh writes .run/pids/NAME.pid). */
export function daemonPid(name: string): number {
  const file = join(STATE, 'pids', `${name}.pid`);
  if (!existsSync(file)) throw new Error(`${file} is missing: is ${name} running from this checkout?`);
  return Number(readFileSync(file, 'utf8').trim());
}

/** Resident memory of a process in MiB (VmRSS) and its peak (VmHWM). */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** A service's database as the tests' own user (tuber-test), to prove what was (not) stored. */
export const mediaMongoUrl = () => process.env.SECURITY_MEDIA_MONGO_URL ?? mongoUrl('media');
export const catalogMongoUrl = () => process.env.SECURITY_CATALOG_MONGO_URL ?? mongoUrl('catalog');
export const profileMongoUrl = () => process.env.SECURITY_PROFILE_MONGO_URL ?? mongoUrl('profile');

/** MinIO as its root user, on loopback: to prove what was (not) stored. */
export function minio(): MinioClient {
  const accessKey = process.env.MINIO_ACCESS_KEY || secret('minio-root-user') || '';
  const secretKey = process.env.MINIO_SECRET_KEY || secret('minio-root-password') || '';
  return new MinioClient({ endPoint: '127.0.0.1', port: Number(process.env.MINIO_PORT ?? 9100), useSSL: false, accessKey, secretKey });
}

export const BUCKET = process.env.MINIO_BUCKET ?? 'product-images';

/** Objects in the product bucket written at or after `since`. */
export async function objectsSince(since: Date): Promise<string[]> {
  const names: string[] = [];
  const stream = minio().listObjectsV2(BUCKET, '', true);
  for await (const item of stream as AsyncIterable<{ name?: string; lastModified?: Date }>) {
    if (item.name && item.lastModified && item.lastModified.getTime() >= since.getTime() - 1000) names.push(item.name);
  }
  return names;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
