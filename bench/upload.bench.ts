// Photo upload through the gateway, including the card and thumbnail variants: five ~3 MB
// photos, one after another and all at once, against five small photos as the baseline.
import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { api, imageForm } from '../test/support/api.js';
import { deleteAccount, signedInAccount } from '../test/support/accounts.js';

/** A photo-like JPEG of about `targetBytes`: noise compresses badly, like real detail. */
async function photoOfSize(targetBytes: number): Promise<Buffer> {
  let side = 1200;
  for (;;) {
    const raw = randomBytes(side * side * 3);
    const jpeg = await sharp(raw, { raw: { width: side, height: side, channels: 3 } }).blur(0.6).jpeg({ quality: 90 }).toBuffer();
    if (jpeg.length >= targetBytes * 0.9 || side > 4000) return jpeg;
    side = Math.round(side * Math.sqrt(targetBytes / jpeg.length));
  }
}

const farmer = await signedInAccount({ role: 'farmer' });
const large = await photoOfSize(3 * 1024 * 1024);
const small = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#7a4' } }).jpeg().toBuffer();

async function uploadAll(data: Buffer, parallel: boolean): Promise<number> {
  const started = performance.now();
  const one = async (i: number) => {
    const answer = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(data, `photo ${i}.jpg`) });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  };
  if (parallel) await Promise.all([0, 1, 2, 3, 4].map(one));
  else for (let i = 0; i < 5; i++) await one(i);
  return performance.now() - started;
}

await uploadAll(small, false); // warm-up
const baseline = await uploadAll(small, false);
const sequential = await uploadAll(large, false);
const parallel = await uploadAll(large, true);
console.log(`\nphoto upload through the gateway (5 photos each, with card and thumbnail variants)`);
console.log(`5 × ${(small.length / 1024).toFixed(0)} KB, one by one (baseline)   ${baseline.toFixed(0).padStart(6)} ms  ratio 1.0`);
console.log(`5 × ${(large.length / 1048576).toFixed(1)} MB, one by one              ${sequential.toFixed(0).padStart(6)} ms  ratio ${(sequential / baseline).toFixed(1)}`);
console.log(`5 × ${(large.length / 1048576).toFixed(1)} MB, all at once             ${parallel.toFixed(0).padStart(6)} ms  ratio ${(parallel / baseline).toFixed(1)}`);
await deleteAccount(farmer.id);
