// Each local server used for real: documents, keys, objects read through the gateway, mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { createClient } from 'redis';
import { Client } from 'minio';
import nodemailer from 'nodemailer';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PUBLIC_URL } from '../support/env.js';
import { mongoUrl, redisUrl } from '../support/credentials.js';

const env = process.env;
// Credentials from the environment (test/run.sh exports them), else the ones infra/local generated.
const secret = (variable: string, file: string) =>
  env[variable] || readFileSync(`${env.TUBER_STATE ?? '.run'}/secrets/${file}`, 'utf8').trim();
const mailApi = `http://127.0.0.1:${env.MAILPIT_HTTP_PORT ?? 8025}/api/v1`;

describe('MongoDB wire protocol (FerretDB locally, MongoDB in compose)', () => {
  let connection: mongoose.Connection;
  beforeAll(async () => {
    connection = await mongoose.createConnection(mongoUrl('infra_test')).asPromise();
  });
  afterAll(async () => connection?.close());

  it('writes a document and reads it back', async () => {
    const collection = connection.collection<{ _id: string; crop: string; kg: number }>('probe');
    const id = randomUUID();
    await collection.insertOne({ _id: id, crop: 'yam', kg: 12.5 });
    expect(await collection.findOne({ _id: id })).toEqual({ _id: id, crop: 'yam', kg: 12.5 });
    await collection.deleteOne({ _id: id });
    expect(await collection.findOne({ _id: id })).toBeNull();
  });
});

describe('Redis', () => {
  it('sets a key with an expiry and gets it', async () => {
    const redis = await createClient({ url: redisUrl() }).connect();
    const key = `infra-test:${randomUUID()}`;
    await redis.set(key, 'cassava', { expiration: { type: 'EX', value: 30 } });
    expect(await redis.get(key)).toBe('cassava');
    expect(await redis.ttl(key)).toBeGreaterThan(0);
    await redis.del(key);
    expect(await redis.get(key)).toBeNull();
    redis.destroy();
  });
});

describe('MinIO bucket product-images', () => {
  it('stores an object that anyone can read through the gateway, but not list', async () => {
    const client = new Client({
      endPoint: '127.0.0.1',
      port: Number(env.MINIO_PORT ?? 9100),
      useSSL: false,
      accessKey: secret('MINIO_ACCESS_KEY', 'minio-root-user'),
      secretKey: secret('MINIO_SECRET_KEY', 'minio-root-password'),
    });
    const name = `infra-test-${randomUUID()}.txt`;
    await client.putObject('product-images', name, Buffer.from('fresh from earth'), 16, { 'Content-Type': 'text/plain' });
    const read = await fetch(`${PUBLIC_URL}/files/${name}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toBe('fresh from earth');
    expect((await fetch(`${PUBLIC_URL}/files/`)).status).toBe(404);
    const deleting = await fetch(`${PUBLIC_URL}/files/${name}`, { method: 'DELETE' });
    expect(deleting.ok).toBe(false);
    expect((await fetch(`${PUBLIC_URL}/files/${name}`)).status).toBe(200);
    await client.removeObject('product-images', name);
    expect((await fetch(`${PUBLIC_URL}/files/${name}`)).status).toBe(404);
  });
});

describe('Mailpit', () => {
  it('receives a mail over SMTP and shows it through its API', async () => {
    const subject = `infra test ${randomUUID()}`;
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: Number(env.MAILPIT_SMTP_PORT ?? 1025),
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({ from: 'noreply@tuber.local', to: 'farmer@test.tuber.local', subject, text: 'Your yams are ready.' });
    const search = await (await fetch(`${mailApi}/search?query=${encodeURIComponent(`subject:"${subject}"`)}`)).json();
    expect(search.messages).toHaveLength(1);
    const message = await (await fetch(`${mailApi}/message/${search.messages[0].ID}`)).json();
    expect(message.Text).toContain('Your yams are ready.');
    expect(message.To[0].Address).toBe('farmer@test.tuber.local');
  });
});
