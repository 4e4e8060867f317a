// The auth app built in-process against the running Keycloak, Redis, NATS and Mailpit, as the
// other integration tests build it, plus what the tests of the account routes share.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp, type AuthOverrides } from '../../src/app.js';
import { BackgroundWork } from '../../src/background.js';
import { defaultBlocklistFile } from '../../src/domain/blocklist.js';
import { AuthConfig } from '../../src/config.js';
import { natsUrl, redisUrl } from '../../../../test/support/credentials.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { firstLink, waitForMail } from '../../../../test/support/mail.js';
import { eventually } from '../../../../test/support/api.js';

export interface ErrorLog {
  fields: Record<string, unknown>;
  message: string;
}

export interface TestApp {
  app: ServiceApp;
  /** The work the routes left running after answering (mail). */
  background: BackgroundWork;
  /** What the routes logged at error level, including from that background work. */
  errors: ErrorLog[];
}

/**
 * Builds the auth app. Rate limits are set out of the way unless `env` sets them; `env` can also
 * point the app at servers that are down.
 */
export async function authApp(env: Record<string, string> = {}, overrides: AuthOverrides = {}): Promise<TestApp> {
  const background = new BackgroundWork();
  const app = await buildApp(
    // The running auth service relays Keycloak's events; an app built for a test does not.
    loadConfig(AuthConfig, {
      ...serviceEnv('auth'),
      // The servers' own users for this service: the tests run with its real permissions.
      REDIS_URL: redisUrl('auth'),
      NATS_URL: natsUrl('auth'),
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      ACCOUNT_EVENTS_POLL_MS: '0',
      ...env,
    }),
    {
      background,
      ...overrides,
    },
  );
  const errors: ErrorLog[] = [];
  // The logger stays silent; each request's own logger is watched instead.
  app.addHook('onRequest', async (request) => {
    vi.spyOn(request.log, 'error').mockImplementation(((fields: Record<string, unknown>, message: string) => {
      errors.push({ fields, message });
    }) as never);
  });
  return { app, background, errors };
}

/** A client address of its own, so rate limits counted in the shared Redis never carry over between tests or runs. */
export const clientAddress = () => `2001:db8:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}::${randomUUID().slice(0, 4)}`;

export const post = (app: ServiceApp, url: string, payload: unknown, ip = clientAddress()) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-forwarded-for': ip } });

export const uniqueEmail = (role: string) => `${role}-${randomUUID().slice(0, 8)}@test.tuber.local`;

/** A password of at least 8 characters on the common-password list (the realm's passwordBlacklist policy reads the same list). */
export async function commonPassword(): Promise<string> {
  const list = (await readFile(defaultBlocklistFile(), 'utf8')).split(/\r?\n/).map((line) => line.trim());
  const found = list.find((line) => /^[a-z0-9]{8,}$/.test(line));
  if (!found) throw new Error('no common password of 8 characters or more');
  return found;
}

/** A local port nothing listens on (a server that is down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The newest reset link mailed to `email` whose token is not one of `seen`. */
export async function resetTokenMailedTo(email: string, seen: string[] = []): Promise<{ token: string; text: string }> {
  const mail = await eventually(
    () => waitForMail(email, /reset/i),
    (m) => !seen.includes(tokenOf(m.text)),
  );
  const token = tokenOf(mail.text);
  if (seen.includes(token)) throw new Error(`no new reset link mailed to ${email}`);
  return { token, text: mail.text };
}

const tokenOf = (text: string) => new URL(firstLink(text, '/reset-password#token=') ?? 'http://x/').hash.replace('#token=', '');

/** The Keycloak users with this e-mail (to prove a refused sign-up created nothing, and to clean up). */
export async function keycloakUsersByEmail(email: string) {
  const admin = new KcAdminClient({ baseUrl: serviceEnv('auth').KEYCLOAK_URL!, realmName: 'tuber' });
  await admin.auth({
    grantType: 'client_credentials',
    clientId: 'tuber-auth',
    clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
  });
  return admin.users.find({ email, exact: true });
}
