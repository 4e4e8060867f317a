// The running media service's memory under upload floods, through the gateway: its peak resident
// set (VmHWM, reset before each flood; sampled as well) stays under the ceiling the media README
// and ADR 0020 state. Two floods: 30 parallel 6000 × 6600 PNGs from one farmer (the attack suite's
// case), and the heaviest work the service accepts, 30 parallel 24 MP photos from six farmers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, imageForm } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';

/** The stated ceiling of the media process's resident memory, in MiB (README, ADR 0020). */
export const MEDIA_RSS_CEILING_MIB = 512;

const state = process.env.TUBER_STATE ?? join(fileURLToPath(new URL('../../../..', import.meta.url)), '.run');
const pid = Number(readFileSync(join(state, 'pids', 'media.pid'), 'utf8').trim());
const status = () => readFileSync(`/proc/${pid}/status`, 'utf8');
const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status())?.[1] ?? NaN) / 1024;

/** Runs `flood` and returns the peak RSS it caused (MiB), the kernel's mark and 20 ms samples both. */
async function peakDuring(flood: () => Promise<void>): Promise<{ peak: number; before: number }> {
  const before = kib('VmRSS');
  let resetWorked = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    resetWorked = false;
  }
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, kib('VmRSS'))), 20);
  try {
    await flood();
  } finally {
    clearInterval(sampler);
  }
  return { peak: Math.max(sampled, resetWorked ? kib('VmHWM') : 0), before };
}

const farmers: TestAccount[] = [];
beforeAll(async () => {
  farmers.push(...(await Promise.all(Array.from({ length: 6 }, () => signedInAccount({ role: 'farmer' })))));
});
afterAll(async () => {
  await Promise.all(farmers.map((f) => deleteAccount(f.id)));
});

const upload = (farmer: TestAccount, data: Buffer, name: string, type: string) =>
  api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(data, name, type) });

describe(`the media process stays under ${MEDIA_RSS_CEILING_MIB} MiB resident`, () => {
  it('while 30 parallel 6000 × 6600 PNGs from one farmer are refused', async () => {
    const png = await sharp({ create: { width: 6000, height: 6600, channels: 3, background: '#c87828' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    let statuses: number[] = [];
    const { peak, before } = await peakDuring(async () => {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(farmers[0]!, png, `flood-${i}.png`, 'image/png')));
      statuses = answers.map((a) => a.status);
    });
    console.info(`30 × 6000×6600 PNG: RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB; answers ${statuses.join(',')}`);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(0);
    expect(peak).toBeLessThan(MEDIA_RSS_CEILING_MIB);
  });

  it('while 30 parallel 24 MP photos from six farmers are decoded, re-encoded and stored', async () => {
    // Noise makes the decoder and encoders work for real; 6000 × 4000 is the largest accepted size.
    const heavy = await sharp({
      create: { width: 6000, height: 4000, channels: 3, noise: { type: 'gaussian', mean: 120, sigma: 30 } },
    })
      .jpeg({ quality: 70 })
      .toBuffer();
    expect(heavy.length).toBeLessThan(10 * 1024 * 1024);
    let statuses: number[] = [];
    const { peak, before } = await peakDuring(async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => upload(farmers[1 + (i % 5)]!, heavy, `heavy-${i}.jpg`, 'image/jpeg')),
      );
      statuses = answers.map((a) => a.status);
    });
    console.info(`30 × 24 MP JPEG: RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB; answers ${statuses.join(',')}`);
    expect(statuses.every((s) => s === 201 || s === 429 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(peak).toBeLessThan(MEDIA_RSS_CEILING_MIB);
  });
  it('while 30 parallel 6 MP WebP photos (decoded whole) from six farmers are decoded and stored', async () => {
    const webp = await sharp({ create: { width: 3000, height: 2000, channels: 3, noise: { type: 'gaussian', mean: 120, sigma: 30 } } })
      .webp({ quality: 80 })
      .toBuffer();
    let statuses: number[] = [];
    const { peak, before } = await peakDuring(async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => upload(farmers[1 + (i % 5)]!, webp, `webp-${i}.webp`, 'image/webp')),
      );
      statuses = answers.map((a) => a.status);
    });
    console.info(`30 × 6 MP WebP: RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB; answers ${statuses.join(',')}`);
    expect(statuses.every((s) => s === 201 || s === 409 || s === 429 || s === 503)).toBe(true);
    expect(peak).toBeLessThan(MEDIA_RSS_CEILING_MIB);
  });
});
