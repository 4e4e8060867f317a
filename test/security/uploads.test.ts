// Hostile uploads through the gateway: each gets a clear 4xx (or 429/503 with a message when many
// arrive at once), nothing reaches the media database or the bucket, and the media process's
// memory stays under the ceiling stated here (and in docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { crc32, createDeflate } from 'node:zlib';
import { imageForm, photo } from '../support/api.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import {
  BUCKET,
  call,
  daemonPid,
  isErrorShape,
  mediaMongoUrl,
  memoryOf,
  minio,
  objectsSince,
  PUBLIC_URL,
  type Answer,
} from './support/stack.js';
import { ARTIFACTS, counts, denialChecked } from './support/tally.js';

/**
 * Peak resident memory the media service may reach while it refuses the uploads below (the
 * 30-upload flood and the bomb included): 512 MiB, the media service's own stated ceiling
 * (services/media/README.md, ADR 0020). Override with SECURITY_MEDIA_RSS_CEILING_MIB.
 */
const RSS_CEILING_MIB = Number(process.env.SECURITY_MEDIA_RSS_CEILING_MIB ?? 512);

let farmer: Actor;
let images: mongoose.Connection;
const storedFor = (who: Actor) => images.collection('image').countDocuments({ farmer_id: who.id });

/** A valid PNG of width × height 8-bit grey pixels, all zero: tiny on disk, `width*height` bytes decoded. */
async function pngOf(width: number, height: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  // Stream the rows through deflate: the raw image (400 MB for the bomb) is never in memory.
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(width + 1);
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const upload = async (data: Buffer, name: string, type: string, token?: string): Promise<Answer> =>
  call('POST', '/api/media/images', { token: token ?? (await farmer.token()), form: imageForm(data, name, type), retryOn429: false });

function expectRefused(answer: Answer, what: string, allowed = [400, 413, 415, 422]) {
  expect(allowed, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
  expect(isErrorShape(answer.body, answer.status), `${what}: a message a person can act on, got ${answer.text.slice(0, 200)}`).toBe(true);
  denialChecked();
}

const SVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" onload="alert(document.cookie)"><script>fetch('/api/profile/me')</script><rect width="100" height="100"/></svg>`;

let pid: number;
let peakReset = false;
/** Resident memory before this file sent anything: the process is shared and keeps what it grew to. */
let baselineMiB = 0;

beforeAll(async () => {
  farmer = await makeActor('uploader', { role: 'farmer', businessName: 'Upload Farms', location: 'Ibadan', tuber: ['yam'] });
  images = await mongoose.createConnection(mediaMongoUrl()).asPromise();
  pid = daemonPid('media');
  baselineMiB = memoryOf(pid).rssMiB;
  // Reset the kernel's peak-RSS mark for the media process, so VmHWM afterwards is this file's peak.
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    peakReset = true;
  } catch {
    peakReset = false;
  }
}, 120_000);

afterAll(async () => {
  await images?.close();
  await disposeCast({ farmer });
});

describe('hostile files are refused and nothing is stored', () => {
  let before: number;
  const since = new Date();
  let maxRss = 0;
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    before = await storedFor(farmer);
    sampler = setInterval(() => {
      try {
        maxRss = Math.max(maxRss, memoryOf(pid).rssMiB);
      } catch {
        /* the process went away: the test below says so */
      }
    }, 25);
  });

  afterAll(async () => {
    clearInterval(sampler);
    const { rssMiB, peakMiB } = memoryOf(pid);
    const peak = peakReset ? Math.max(peakMiB, maxRss) : maxRss;
    counts.notes.push(
      `media RSS during hostile uploads: peak ${peak.toFixed(0)} MiB (ceiling ${RSS_CEILING_MIB} MiB), before ${baselineMiB.toFixed(0)} MiB, now ${rssMiB.toFixed(0)} MiB`,
    );
    writeFileSync(
      `${ARTIFACTS}/media-memory.json`,
      JSON.stringify({ peakMiB: peak, beforeMiB: baselineMiB, nowMiB: rssMiB, ceilingMiB: RSS_CEILING_MIB, peakReset }, null, 2),
    );
  });

  it('text named .jpg', async () => {
    expectRefused(
      await upload(Buffer.from('this is not a photo, it is a text file\n'.repeat(50)), 'photo.jpg', 'image/jpeg'),
      'text as .jpg',
    );
  });

  it('SVG with a script, as .svg and disguised as .jpg/.png', async () => {
    expectRefused(await upload(Buffer.from(SVG), 'yam.svg', 'image/svg+xml'), 'SVG');
    expectRefused(await upload(Buffer.from(SVG), 'yam.jpg', 'image/jpeg'), 'SVG named .jpg');
    expectRefused(await upload(Buffer.from(SVG), 'yam.png', 'image/png'), 'SVG named .png');
  });

  it('HTML and a script disguised as photos', async () => {
    expectRefused(await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'yam.jpg', 'text/html'), 'HTML');
    expectRefused(await upload(Buffer.from('#!/bin/sh\nrm -rf /\n'), 'yam.jpeg', 'image/jpeg'), 'shell script');
  });

  it('an empty file', async () => {
    expectRefused(await upload(Buffer.alloc(0), 'empty.jpg', 'image/jpeg'), 'empty file');
  });

  it('a truncated JPEG (a real photo cut in half)', async () => {
    const real = await photo(400, 300);
    expectRefused(await upload(real.subarray(0, Math.floor(real.length / 2)), 'half.jpg', 'image/jpeg'), 'truncated JPEG');
  });

  it('15 MB (over the 10 MB limit)', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(15 * 1024 * 1024)]);
    expectRefused(await upload(big, 'huge.jpg', 'image/jpeg'), '15 MB file', [413]);
  });

  it('a 20 000 × 20 000 PNG decompression bomb (small on disk, 400 MB of pixels)', async () => {
    const bomb = await pngOf(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expectRefused(await upload(bomb, 'bomb.png', 'image/png'), 'PNG bomb');
  });

  it('a PNG whose header claims 20 000 × 20 000 with almost no data', async () => {
    const { pngBomb } = await import('../support/api.js');
    expectRefused(await upload(pngBomb(20_000, 20_000), 'liar.png', 'image/png'), 'lying PNG header');
  });

  it('30 parallel 6000 × 6600 PNGs: each refused with a message (400, or 429/503 for the flood)', async () => {
    const big = await sharp({ create: { width: 6000, height: 6600, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const token = await farmer.token();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(big, `flood-${i}.png`, 'image/png', token)));
    const statuses = answers.map((a) => a.status);
    for (const [i, answer] of answers.entries()) expectRefused(answer, `flood upload ${i}`, [400, 413, 422, 429, 503]);
    counts.notes.push(
      `30 parallel 6000×6600 PNGs answered: ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}`,
    );
  });

  it('an upload without a token is refused before anything is read', async () => {
    const answer = await call('POST', '/api/media/images', { form: imageForm(await photo(800, 600), 'anon.jpg'), retryOn429: false });
    expect(answer.status).toBe(401);
    denialChecked();
  });

  it('nothing above reached the media database or the bucket', async () => {
    expect(await storedFor(farmer)).toBe(before);
    expect(await objectsSince(since)).toEqual([]);
  });

  it(`the media process stayed alive and under ${RSS_CEILING_MIB} MiB resident`, async () => {
    const { rssMiB, peakMiB } = memoryOf(pid);
    const peak = peakReset ? Math.max(peakMiB, maxRss) : maxRss;
    expect(
      peak,
      `peak RSS of the media service (${peakReset ? 'VmHWM since reset' : 'sampled every 25 ms'}; ${baselineMiB.toFixed(0)} MiB before this file)`,
    ).toBeLessThan(RSS_CEILING_MIB);
    expect(rssMiB).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${process.env.MEDIA_PORT ?? 4004}/health`);
    expect(health.status).toBe(200);
  });
});

describe('hostile names on real photos', () => {
  // Another farmer: the flood above may have used up the first one's upload allowance.
  let namer: Actor;
  beforeAll(async () => {
    namer = await makeActor('namer', { role: 'farmer', businessName: 'Name Farms', location: 'Oyo', tuber: ['yam'] });
  }, 60_000);
  afterAll(async () => {
    await disposeCast({ namer });
  });
  const NAMES = [
    '../../../etc/passwd.jpg',
    '..\\..\\windows\\win.ini.jpg',
    '%2e%2e%2f%2e%2e%2fsecret.jpg',
    '/absolute/path.jpg',
    'ÿam 🍠 \u202Egpj.exe.jpg',
    'Ｙａｍ．ｊｐｇ',
    '.htaccess',
    `${'a'.repeat(300)}.jpg`,
    'name with "quotes" and <tags>.jpg',
  ];

  it.each(NAMES)('%s is refused, or stored under a safe object name in the bucket only', async (name) => {
    const since = new Date();
    const answer = await upload(await photo(320, 240), name, 'image/jpeg', await namer.token());
    if (answer.status !== 201) {
      expectRefused(answer, `name ${name}`);
      expect(await objectsSince(since)).toEqual([]);
      return;
    }
    const key = decodeURIComponent(new URL(answer.body.url).pathname.replace(/^\/files\//, ''));
    expect(key, 'object name').toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/);
    expect(answer.body.url.startsWith(`${PUBLIC_URL}/files/`)).toBe(true);
    await minio().statObject(BUCKET, key);
    for (const object of await objectsSince(since)) {
      expect(object, 'every object written').toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,240}$/);
      expect(object).not.toContain('..');
    }
    denialChecked();
  });

  it('a stored photo is served as an image whatever the query string asks', async () => {
    const answer = await upload(await photo(320, 240), 'served.jpg', 'image/jpeg', await namer.token());
    expect(answer.status).toBe(201);
    for (const query of [
      '',
      '?response-content-type=text/html',
      '?response-content-disposition=inline;filename=x.html',
      '?X-Amz-Algorithm=x',
    ]) {
      const file = await fetch(`${answer.body.url}${query}`);
      expect(file.status, query).toBe(200);
      expect(file.headers.get('content-type'), query).toMatch(/^image\//);
      expect(file.headers.get('content-disposition') ?? '', query).not.toContain('.html');
      const csp = file.headers.get('content-security-policy') ?? '';
      expect(csp, query).toMatch(/default-src 'none'/);
      expect(csp, query).toMatch(/sandbox/);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      await file.arrayBuffer();
    }
  });
});
