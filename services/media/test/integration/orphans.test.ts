// Uploads no product takes are removed after the grace period: the object and its record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { MediaConfig } from '../../src/config.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { photo } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';

let app: ServiceApp;
let farmer: TestAccount;

beforeAll(async () => {
  // Its own database: a one-second grace period must not sweep other tests' fresh uploads.
  const env = serviceEnv('media');
  app = await buildApp(
    loadConfig(MediaConfig, { ...env, MONGO_URL: mongoUrl('media_orphans_test'), MEDIA_ORPHAN_GRACE_S: '1', MEDIA_SWEEP_INTERVAL_S: '1' }),
  );
  farmer = await signedInAccount({ role: 'farmer' });
});
afterAll(async () => {
  await app?.close();
  if (farmer) await deleteAccount(farmer.id);
});

function multipart(data: Buffer, name: string) {
  const boundary = '----tuber-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('orphaned uploads', () => {
  it('are removed, file and record, once the grace period has passed', async () => {
    const body = multipart(await photo(200, 150), 'left behind.jpg');
    const stored = await app.inject({
      method: 'POST',
      url: '/api/media/images',
      payload: body.payload,
      headers: { 'content-type': body.contentType, authorization: `Bearer ${farmer.accessToken}` },
    });
    expect(stored.statusCode).toBe(201);
    const { image_id, url } = stored.json();
    expect((await fetch(url)).status).toBe(200);
    const started = Date.now();
    let status = 200;
    while (Date.now() - started < 15_000 && status === 200) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = (await fetch(url)).status;
    }
    expect(status).toBe(404);
    const record = await app.inject({ url: `/api/media/images/${image_id}`, headers: { authorization: `Bearer ${farmer.accessToken}` } });
    expect(record.statusCode).toBe(404);
  });
});
