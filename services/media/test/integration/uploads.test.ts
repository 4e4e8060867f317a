// The running media service through the gateway: photos are stored under random object names
// (the spec's file name stays in the record), the gateway's upload permit answers only 204, 401
// or 403, a photo no product uses is its farmer's business only, the pixel limit is 24 MP, and a
// farmer's uploads are counted by token subject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { api, imageForm, photo } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { PUBLIC_URL } from '../../../../test/support/env.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let buyer: TestAccount;

beforeAll(async () => {
  [farmer, otherFarmer, buyer] = await Promise.all([
    signedInAccount({ role: 'farmer' }),
    signedInAccount({ role: 'farmer' }),
    signedInAccount({ role: 'buyer' }),
  ]);
});
afterAll(async () => {
  await Promise.all([farmer, otherFarmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const upload = (account: TestAccount, data: Buffer, name: string, type = 'image/jpeg') =>
  api('POST', '/api/media/images', { token: account.accessToken, form: imageForm(data, name, type) });

describe('object names', () => {
  it('are random; the spec file name is kept in the record and is not an address of the photo', async () => {
    const answer = await upload(farmer, await photo(320, 240), 'My Yam (1).jpg');
    expect(answer.status).toBe(201);
    expect(answer.body.file_name).toMatch(/^\d{13}_My_Yam_1\.jpg$/);
    expect(answer.body.url).toMatch(new RegExp(`^${PUBLIC_URL}/files/[0-9a-f]{32}\\.jpg$`));
    expect(answer.body.card_url).toBe(`${answer.body.url}.card.webp`);
    expect(answer.body.thumb_url).toBe(`${answer.body.url}.thumb.webp`);
    for (const url of [answer.body.url, answer.body.card_url, answer.body.thumb_url]) expect((await fetch(url)).status).toBe(200);
    expect((await fetch(`${PUBLIC_URL}/files/${answer.body.file_name}`)).status).toBe(404);
    // Two uploads never share an object.
    const again = await upload(farmer, await photo(320, 240), 'My Yam (1).jpg');
    expect(again.body.url).not.toBe(answer.body.url);
  });
});

describe('the upload permit the gateway asks for', () => {
  const permit = (token?: string) => api('GET', '/api/media/images/upload-permit', { token });

  it('answers 204 to a farmer, 401 without a valid token, 403 to a buyer', async () => {
    const yes = await permit(farmer.accessToken);
    expect(yes.status).toBe(204);
    expect(yes.body).toBeNull();
    expect((await permit()).status).toBe(401);
    expect((await permit('not.a.token')).status).toBe(401);
    expect((await permit(`${farmer.accessToken.slice(0, -4)}AAAA`)).status).toBe(401);
    expect((await permit(buyer.accessToken)).status).toBe(403);
  });

  it('is declared with exactly those statuses', async () => {
    const doc = (await api('GET', '/api/media/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/media/images/upload-permit'].get.responses).sort()).toEqual(['204', '401', '403', '503']);
  });
});

describe('a photo no product uses yet', () => {
  it('can be read by its farmer only; others get 404 as if it did not exist', async () => {
    const { image_id } = (await upload(farmer, await photo(200, 150), 'mine.jpg')).body;
    expect((await api('GET', `/api/media/images/${image_id}`, { token: farmer.accessToken })).status).toBe(200);
    for (const other of [otherFarmer, buyer]) {
      const answer = await api('GET', `/api/media/images/${image_id}`, { token: other.accessToken });
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe('No image with this id.');
    }
  });
});

describe('the pixel limit', () => {
  it('takes a 24 MP photo (6000 × 4000) and refuses one pixel row more with a clear 400', async () => {
    const flat = (height: number) =>
      sharp({ create: { width: 6000, height, channels: 3, background: '#a0522d' } })
        .jpeg({ quality: 60 })
        .toBuffer();
    const taken = await upload(farmer, await flat(4000), 'wide.jpg');
    expect(taken.status).toBe(201);
    expect([taken.body.width, taken.body.height]).toEqual([6000, 4000]);
    const refused = await upload(farmer, await flat(4001), 'wider.jpg');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('This image is too large (6000×4001 pixels). Use a photo of at most 24 megapixels.');
  });
});

describe('uploads per farmer', () => {
  it('are counted by token subject: after 60 in 10 minutes, 429 saying when to try again', async () => {
    const busy = await signedInAccount({ role: 'farmer' });
    try {
      const empty = () => {
        const form = new FormData();
        form.append('note', 'no photo');
        return api('POST', '/api/media/images', { token: busy.accessToken, form });
      };
      for (let i = 0; i < 60; i++) expect((await empty()).status).toBe(400);
      const limited = await api('POST', '/api/media/images', { token: busy.accessToken, form: imageForm(await photo(64, 48), 'x.jpg') });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^Too many photo uploads\. Please wait \d+ seconds and try again\.$/);
      // Another farmer is not affected.
      expect((await upload(otherFarmer, await photo(64, 48), 'fine.jpg')).status).toBe(201);
    } finally {
      await deleteAccount(busy.id);
    }
  });
});
