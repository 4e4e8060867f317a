// The product-images bucket in MinIO (S3 API). Every call is bounded in time: a MinIO that is
// restarting, paused or gone must not hold an upload (and the farmer waiting for it) for ever.
import { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { Client } from 'minio';
import type { MediaConfig } from './config.js';

export interface StoredObject {
  name: string;
  lastModified: Date;
}

export interface ImageStore {
  put(fileName: string, data: Buffer, contentType: string): Promise<void>;
  remove(fileName: string): Promise<void>;
  /** Every object in the bucket (for the clean-up that compares the bucket with the records). */
  list(): Promise<StoredObject[]>;
  check(): Promise<void>;
  publicUrl(fileName: string): string;
}

/** The bucket did not answer in time, refused the connection or answered an error. */
export class StoreUnavailable extends Error {}

/** Rejects with StoreUnavailable when `work` has not settled within `ms` (the work itself goes on). */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailable(`${what}: no answer from MinIO within ${ms} ms`)), ms);
      }),
    ]);
  } catch (err) {
    if (err instanceof StoreUnavailable) throw err;
    throw new StoreUnavailable(`${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keep-alive connections that are destroyed after `idleMs` without traffic in either direction, so
 * a request to a paused or half-dead MinIO fails (and MinIO drops the unfinished object) instead of
 * hanging in the background after the farmer got an answer.
 */
class BoundedAgent extends Agent {
  constructor(private readonly idleMs: number) {
    super({ keepAlive: true, maxSockets: 32 });
  }
  override createConnection(...args: Parameters<Agent['createConnection']>): ReturnType<Agent['createConnection']> {
    // createConnection is not in @types/node's Agent, but http.Agent has it.
    const socket = (Agent.prototype as unknown as { createConnection: (...a: unknown[]) => Socket }).createConnection.apply(this, args);
    socket.setTimeout(this.idleMs, () => socket.destroy(new Error(`MinIO connection idle for ${this.idleMs} ms`)));
    return socket as ReturnType<Agent['createConnection']>;
  }
}

export function minioStore(config: MediaConfig): ImageStore {
  const timeoutMs = config.MEDIA_STORE_TIMEOUT_MS;
  const client = new Client({
    endPoint: config.MINIO_ENDPOINT,
    port: config.MINIO_PORT,
    useSSL: config.MINIO_USE_SSL,
    accessKey: config.MINIO_ACCESS_KEY,
    secretKey: config.MINIO_SECRET_KEY,
    ...(config.MINIO_USE_SSL ? {} : { transportAgent: new BoundedAgent(timeoutMs) }),
  });
  const bucket = config.MINIO_BUCKET;
  const publicBase = `${config.PUBLIC_URL.replace(/\/$/, '')}/files/`;
  return {
    async put(fileName, data, contentType) {
      await within(
        client.putObject(bucket, fileName, data, data.length, {
          'Content-Type': contentType,
          'Cache-Control': 'public, max-age=31536000, immutable',
        }),
        timeoutMs,
        `storing ${fileName}`,
      );
    },
    async remove(fileName) {
      await within(client.removeObject(bucket, fileName), timeoutMs, `removing ${fileName}`);
    },
    async list() {
      const listing = new Promise<StoredObject[]>((resolve, reject) => {
        const objects: StoredObject[] = [];
        const stream = client.listObjectsV2(bucket, '', true);
        stream.on('data', (item) => {
          if (item.name) objects.push({ name: item.name, lastModified: item.lastModified ?? new Date(0) });
        });
        stream.on('error', reject);
        stream.on('end', () => resolve(objects));
      });
      // A listing is many requests (1000 names each): give it longer than one call.
      return within(listing, timeoutMs * 10, 'listing the bucket');
    },
    async check() {
      if (!(await client.bucketExists(bucket))) throw new Error(`bucket ${bucket} does not exist`);
    },
    publicUrl: (fileName) => publicBase + encodeURIComponent(fileName),
  };
}
