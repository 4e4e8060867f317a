// Pact of the farmer remote with the media service: one photo sent as the add page sends it without a
// token getter (the shell's API client, a multipart form with the field "file"), answered with what the
// photo picker and the draft read. Pact's mock server; contracts/pacts/farmer-media.json must match (make pacts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { uploadPhoto } from '../../src/add-product/uploadPhoto.js';

const { string, integer, regex } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'farmer', provider: 'media', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'farmer-media.json')).toBeNull());

/** A real 320×240 JPEG: the provider stores what the pact sends. */
const photoFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/yam-320.jpg');
const farmerToken = 'a-farmer-access-token';

describe('pact: farmer → media', () => {
  it('one photo uploaded for a new product', async () => {
    pact
      .uponReceiving('a photo uploaded from the add page')
      .withRequestMultipartFileUpload(
        { method: 'POST', path: '/api/media/images', headers: { authorization: regex('Bearer .+', `Bearer ${farmerToken}`) } },
        'image/jpeg',
        photoFile,
        'file',
        'tuber-pact-boundary',
      )
      .willRespondWith({
        status: 201,
        body: {
          image_id: string('0b7c9a4e-3f0e-4a53-9a44-2f0d1c7e6b10'),
          thumb_url: string('/files/0b7c9a4e.jpg.thumb.webp'),
          width: integer(320),
          height: integer(240),
        },
      });
    await pact.executeTest(async (server) => {
      const api = createApiClient({ baseUrl: `${server.url}/api`, getAccessToken: () => farmerToken });
      const file = new File([fs.readFileSync(photoFile)], 'yam-320.jpg', { type: 'image/jpeg' });
      const progress: number[] = [];
      const image = await uploadPhoto(file, { api, apiBaseUrl: `${server.url}/api`, onProgress: (loaded) => progress.push(loaded), signal: new AbortController().signal });
      expect(image.image_id).toBe('0b7c9a4e-3f0e-4a53-9a44-2f0d1c7e6b10');
      expect(progress).toEqual([file.size]);
    });
  });
});
