// R4 (issue 10 §2): photo uploads go through the gateway (POST /api/media/images as farmers) while
// MinIO is stopped and started again (infra/local/minio.sh stop, a pause, start). Each upload must
// succeed whole (201, and the original and both variants readable through the gateway) or fail
// clearly (a declared 503 with a message a person can act on: never a 500, never an answer later
// than the bound). Then the media service's own clean-up runs (uploads whose files were not all
// stored: files removed, then the record) and the bucket is compared with the records by key: no
// object without a record, no record without its three objects.
//   full: 6 farmers, MinIO down 6 s; short: 3 farmers, 4 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { mongoUrl } from '../support/credentials.js';
import { healthyStack, restoreAll, startServer, stopServer } from './support/faults.js';
import { reportChaos } from './support/report.js';
import { actors, byScale, call, closeAgents, photoForm, removeActors, SCALE, until, type Actor } from './support/traffic.js';
import { minioRoot } from '../support/minio.js';

const FARMERS = byScale(6, 3);
/** Uploads per farmer at most: under the unattached cap (30) and the per-farmer limit (60 per 10 min). */
const PER_FARMER = byScale(25, 15);
const PACE_MS = byScale(250, 250);
const DOWN_MS = byScale(6_000, 4_000);
const BEFORE_MS = 2_000;
const AFTER_MS = 4_000;
/** An answer later than this counts as a hang. */
const BOUND_MS = 20_000;
/** The media service's clean-up of failed uploads runs every 30 s (MEDIA_CLEANUP_INTERVAL_S). */
const CLEANUP_WITHIN_MS = 75_000;
/** Client addresses of their own (R1 and R2 use lower ones). */
const FIRST_ADDRESS = 600;

type Phase = 'before' | 'down' | 'starting' | 'after';
interface Upload {
  farmer: string;
  phase: Phase;
  status: number;
  ms: number;
  message?: string;
  urls?: string[];
  imageId?: string;
}

const variants = (objectName: string) => [objectName, `${objectName}.card.webp`, `${objectName}.thumb.webp`];
const VARIANT = /\.(card|thumb)\.webp$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

const minio = minioRoot();
const BUCKET = process.env.MINIO_BUCKET ?? 'product-images';

let farmers: Actor[] = [];
let media: mongoose.Connection;

beforeAll(async () => {
  await healthyStack();
  media = await mongoose.createConnection(mongoUrl('media')).asPromise();
});

afterAll(async () => {
  await restoreAll();
  // Their photos are removed with the accounts (AccountDeleted) or swept as never used.
  await removeActors(farmers).catch(() => undefined);
  await closeAgents();
  await media?.close();
});

async function listBucket(): Promise<{ name: string; lastModified: Date }[]> {
  return new Promise((resolve, reject) => {
    const found: { name: string; lastModified: Date }[] = [];
    minio
      .listObjectsV2(BUCKET, '', true)
      .on('data', (o) => o.name && found.push({ name: o.name, lastModified: o.lastModified ?? new Date(0) }))
      .on('error', reject)
      .on('end', () => resolve(found));
  });
}

interface Census {
  /** Objects written since the run began that no record names. */
  objectsWithoutRecord: number;
  /** Records of this run's farmers still marked not stored (a failed upload not yet cleaned up). */
  incompleteRecords: number;
  /** Stored records of this run's farmers missing the original or a variant. */
  recordsWithoutObjects: number;
}

/** The bucket against the records, by object name. */
async function census(farmerIds: string[], since: Date): Promise<Census> {
  // Records first (as the service does): an object listed afterwards is then never judged against a stale list.
  const records = await media
    .collection('image')
    .find({}, { projection: { image_id: 1, farmer_id: 1, file_name: 1, object_name: 1, stored: 1 } })
    .toArray();
  const objects = await listBucket();
  const inBucket = new Set(objects.map((o) => o.name));
  const named = new Set(records.map((r) => (r.object_name as string) || (r.file_name as string)));
  const ours = records.filter((r) => farmerIds.includes(r.farmer_id as string));
  return {
    objectsWithoutRecord: objects.filter((o) => o.lastModified >= since && !named.has(o.name.replace(VARIANT, ''))).length,
    incompleteRecords: ours.filter((r) => r.stored === false).length,
    recordsWithoutObjects: ours.filter((r) => r.stored !== false && variants(r.object_name as string).some((n) => !inBucket.has(n))).length,
  };
}

/** Readable through the gateway, as a browser reads it. */
async function readable(url: string): Promise<boolean> {
  const path = new URL(url).pathname;
  const answer = await call('GET', path, { route: 'GET /files/:name' });
  return answer.status === 200;
}

describe(`R4: photo uploads while MinIO restarts (${SCALE})`, () => {
  it('each upload succeeds whole or fails with a declared 503 within the bound; after clean-up no object without record, no record without objects', async () => {
    farmers = await actors('farmer', FARMERS, FIRST_ADDRESS);
    const farmerIds = farmers.map((f) => f.id);
    const runStart = new Date(Date.now() - 2_000);
    const photos = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 120 + i * 15, g: 90, b: 40 } } })
          .jpeg({ quality: 85 })
          .toBuffer(),
      ),
    );

    // ---- traffic: each farmer uploads one photo after the other ----
    let phase: Phase = 'before';
    let stop = false;
    const uploads: Upload[] = [];
    const drive = async (farmer: Actor, f: number) => {
      for (let n = 0; n < PER_FARMER && !stop; n++) {
        const at = phase;
        const answer = await farmer.call('POST', '/api/media/images', {
          form: photoForm(photos[(f + n) % photos.length]!, `chaos ${f}-${n}.jpg`),
          timeoutMs: BOUND_MS,
        });
        const body = answer.body as { message?: string; image_id?: string; url?: string; card_url?: string; thumb_url?: string } | null;
        uploads.push({
          farmer: farmer.id,
          phase: at,
          status: answer.status,
          ms: answer.ms,
          message: body?.message,
          ...(answer.status === 201 ? { imageId: body!.image_id, urls: [body!.url!, body!.card_url!, body!.thumb_url!] } : {}),
        });
        await sleep(PACE_MS);
      }
    };
    const traffic = Promise.all(farmers.map(drive));

    // ---- the fault: MinIO stopped, left down, started again through its own script ----
    await sleep(BEFORE_MS);
    phase = 'down';
    const downAt = Date.now();
    await stopServer('minio');
    await sleep(DOWN_MS);
    phase = 'starting';
    await startServer('minio');
    const upAt = Date.now();
    phase = 'after';
    await sleep(AFTER_MS);
    stop = true;
    await traffic;

    // ---- every answer judged ----
    const succeeded = uploads.filter((u) => u.status === 201);
    const failedClearly = uploads.filter(
      (u) => u.status === 503 && typeof u.message === 'string' && u.message.length > 20 && !/something went wrong/i.test(u.message),
    );
    const status500 = uploads.filter((u) => u.status === 500);
    const hung = uploads.filter((u) => u.status === 0 || u.ms >= BOUND_MS);
    const other = uploads.filter((u) => u.status !== 201 && !failedClearly.includes(u) && !status500.includes(u) && !hung.includes(u));
    let whole = 0;
    const broken: string[] = [];
    for (const upload of succeeded) {
      const ok = (await Promise.all(upload.urls!.map(readable))).every(Boolean);
      if (ok) whole += 1;
      else broken.push(upload.imageId!);
    }

    // ---- the bucket against the records, before and after the service's clean-up ----
    const before = await census(farmerIds, runStart);
    const cleanStarted = Date.now();
    const after = await until(
      () => census(farmerIds, runStart),
      (c) => c.incompleteRecords === 0 && c.objectsWithoutRecord === 0 && c.recordsWithoutObjects === 0,
      CLEANUP_WITHIN_MS,
      1_000,
    );
    const cleanMs = Date.now() - cleanStarted;

    const statuses: Record<string, number> = {};
    for (const u of uploads) statuses[u.status] = (statuses[u.status] ?? 0) + 1;
    const duringOutage = uploads.filter((u) => u.phase === 'down' || u.phase === 'starting');
    const maxMs = Math.max(...uploads.map((u) => u.ms));
    const orphansBefore = before.objectsWithoutRecord + before.incompleteRecords + before.recordsWithoutObjects;
    const orphansAfter = after.objectsWithoutRecord + after.incompleteRecords + after.recordsWithoutObjects;
    const pass =
      uploads.length > 0 &&
      duringOutage.length > 0 &&
      failedClearly.length > 0 &&
      whole === succeeded.length &&
      succeeded.length + failedClearly.length === uploads.length &&
      status500.length === 0 &&
      hung.length === 0 &&
      orphansAfter === 0;

    reportChaos({
      id: 'R4',
      title: 'MinIO restarted during photo uploads',
      method:
        `${FARMERS} farmers upload 1200×900 JPEGs one after the other (${PACE_MS} ms apart, at most ${PER_FARMER} each) through the gateway; ` +
        `after ${seconds(BEFORE_MS)} s MinIO is stopped (infra/local/minio.sh stop), left down ${seconds(DOWN_MS)} s and started again ` +
        `(minio.sh start, which waits until it answers); uploads go on ${seconds(AFTER_MS)} s after. Each 201 is read back through the gateway ` +
        `(original, card and thumbnail); then the bucket is compared with the media records by object name until the media service's ` +
        `own clean-up has run (bound ${seconds(CLEANUP_WITHIN_MS)} s).`,
      counts: {
        sent: uploads.length,
        succeeded: succeeded.length,
        'succeeded whole': whole,
        'failed clearly (503)': failedClearly.length,
        '500s': status500.length,
        'hung or no answer': hung.length,
        other: other.length,
        'orphans before clean-up': orphansBefore,
        'orphans after clean-up': orphansAfter,
      },
      observations: [
        `statuses: ${Object.entries(statuses)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}`,
        `uploads sent while MinIO was down or starting: ${duringOutage.length} (${duringOutage.filter((u) => u.status === 201).length} stored)`,
        `MinIO down → answering again: ${seconds(upAt - downAt)} s; slowest upload answer ${seconds(maxMs)} s (bound ${seconds(BOUND_MS)} s)`,
        `before clean-up: ${before.objectsWithoutRecord} objects without a record, ${before.incompleteRecords} records of failed uploads, ` +
          `${before.recordsWithoutObjects} stored records missing an object`,
        `after clean-up (${seconds(cleanMs)} s): ${after.objectsWithoutRecord} objects without a record, ${after.incompleteRecords} failed-upload records, ` +
          `${after.recordsWithoutObjects} stored records missing an object`,
        ...(failedClearly[0] ? [`the 503 says: "${failedClearly[0].message}"`] : []),
        ...(broken.length ? [`201 but not readable whole: ${broken.join(', ')}`] : []),
        ...(other.length ? [`other answers: ${other.map((u) => `${u.status} ${u.message ?? ''}`).join('; ')}`] : []),
      ],
      pass,
      notes: [
        'Changed for this scenario: the media service answers 503 "…photo storage is not answering right now. Nothing was kept…" ' +
          '(before: 500) when MinIO fails or does not answer within MEDIA_STORE_TIMEOUT_MS (15 s; idle connections cut too); an image record is ' +
          '"not stored" until all three files are in the bucket, a failed upload removes its files then its record, and the clean-up ' +
          '(every 30 s) finishes that when MinIO was away; the bucket is compared with the records at start and hourly (docs/adr/0027).',
      ],
    });

    expect(duringOutage.length, 'uploads were sent during the outage').toBeGreaterThan(0);
    expect(failedClearly.length, 'the fault path was hit (503s)').toBeGreaterThan(0);
    expect(status500.length, '500s').toBe(0);
    expect(hung.length, 'hangs').toBe(0);
    expect(other.map((u) => `${u.status} ${u.message}`)).toEqual([]);
    expect(broken, '201s not readable whole').toEqual([]);
    expect(after).toEqual({ objectsWithoutRecord: 0, incompleteRecords: 0, recordsWithoutObjects: 0 });
  });
});
