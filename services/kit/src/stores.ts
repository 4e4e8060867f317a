// Connections to the stores services own: MongoDB (mongoose) and Redis (node-redis, the `redis`
// package; docs/adr/0028). Credentials come in the URLs (docs/adr/0017):
// `mongodb://user:password@host/db?authMechanism=PLAIN` for FerretDB, `redis://user:password@host:port`
// for a Redis ACL user; they never reach a message.
import mongoose, { type Connection } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { redactUrl } from './credentials.js';

/** Opens a mongoose connection (one per service database). Only MongoDB features FerretDB 1.x also has are used. */
export async function connectMongo(url: string): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    serverSelectionTimeoutMS: 5_000,
    // A paused or unreachable server is noticed within seconds (heartbeat and handshake bounded), and
    // an operation stuck on it fails after 30 s at most: the route answers 503 (docs/adr/0024).
    connectTimeoutMS: 5_000,
    heartbeatFrequencyMS: 5_000,
    socketTimeoutMS: 30_000,
    // Models must not queue writes forever while the server is away.
    bufferCommands: false,
    autoIndex: true,
  });
  await connection.asPromise();
  return connection;
}

export async function pingMongo(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error('not connected');
  await db.admin().ping();
}

/** The Redis client every service gets from `connectRedis`/`useRedis` (node-redis, RESP3). */
export type RedisClient = RedisClientType;

export interface RedisConnectOptions {
  /** How long the first connection may take before the start fails (default 10 s). */
  startupTimeoutMs?: number;
  /**
   * Answer at once and connect in the background, for a Redis the service can serve without (the
   * catalog's read model, docs/adr/0061): its commands are refused until it is ready, and a refused
   * sign-in is retried like an outage instead of failing the start.
   */
  background?: boolean;
}

/** Replies that mean the server refused this client's sign-in: waiting will not fix them. */
const SIGN_IN_REFUSED = /^(WRONGPASS|NOAUTH|NOPERM)\b/;

/** Waits between reconnection attempts: 200 ms more each time, never more than 2 s. */
export const redisReconnectDelay = (retries: number): number => Math.min((retries + 1) * 200, 2_000);

/**
 * Opens a Redis client that fails fast while the server is away (no offline queue: a command
 * sent then is refused at once instead of waiting) and reconnects on its own, every 200 ms to 2 s.
 * The first connection must come within `startupTimeoutMs`; a refused sign-in (WRONGPASS, NOAUTH)
 * fails the start at once, with Redis's own words in the message.
 */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<RedisClient> {
  const startupTimeoutMs = options.startupTimeoutMs ?? 10_000;
  let lastError = '';
  let connected = false;
  const client: RedisClient = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 3_000,
      reconnectStrategy: (retries, cause) => {
        lastError = cause.message;
        if (!connected && !options.background && SIGN_IN_REFUSED.test(cause.message)) {
          return new Error(`Redis at ${redactUrl(url)} refused the sign-in: ${cause.message}`);
        }
        return redisReconnectDelay(retries);
      },
    },
  });
  // Errors while reconnecting are reported by /ready; the listener keeps them handled.
  client.on('error', (err: Error) => {
    lastError = err.message;
  });

  if (options.background) {
    client.connect().catch(() => undefined);
    return client;
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new Error(`Redis at ${redactUrl(url)} did not become ready within ${startupTimeoutMs} ms${lastError ? `: ${lastError}` : ''}`),
      );
    }, startupTimeoutMs);
  });
  const connecting = client.connect();
  try {
    await Promise.race([connecting, deadline]);
    connected = true;
    return client;
  } catch (err) {
    connecting.catch(() => undefined);
    if (client.isOpen) client.destroy();
    throw err instanceof Error && err.message.startsWith('Redis at ')
      ? err
      : new Error(`Redis at ${redactUrl(url)} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a client: pending commands finish if the server answers, otherwise it is cut off after `graceMs`. */
export async function closeRedis(client: RedisClient, graceMs = 1_000): Promise<void> {
  if (!client.isOpen) return;
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([client.close().catch(() => undefined), cut]);
  clearTimeout(timer);
  if (client.isOpen) client.destroy();
}
