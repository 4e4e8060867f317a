// Connections to the stores services own: MongoDB (mongoose) and Redis (ioredis). Credentials
// come in the URLs (docs/adr/0017): `mongodb://user:password@host/db?authMechanism=PLAIN` for
// FerretDB, `redis://user:password@host:port` for a Redis ACL user; they never reach a message.
import mongoose, { type Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { redactUrl } from './credentials.js';

/** Opens a mongoose connection (one per service database). Only MongoDB features FerretDB 1.x also has are used. */
export async function connectMongo(url: string): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    serverSelectionTimeoutMS: 5_000,
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

/** Opens a Redis client that fails fast while the server is away (and reconnects on its own). */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 3_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // A refused sign-in (WRONGPASS, NOAUTH) shows in the message instead of only a time-out.
  let lastError = '';
  redis.on('error', (err: Error) => {
    lastError = err.message;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.disconnect();
      reject(new Error(`Redis at ${redactUrl(url)} did not become ready${lastError ? `: ${lastError}` : ''}`));
    }, 10_000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  // Errors while reconnecting are reported by /ready (the listener above keeps them handled).
  return redis;
}
