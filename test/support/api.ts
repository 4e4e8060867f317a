// Calls to the product's API through the gateway, as a browser would make them.
import sharp from 'sharp';
import { PUBLIC_URL } from './env.js';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

export async function api<T = any>(method: string, path: string, options: { token?: string; json?: unknown; form?: FormData } = {}): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  const response = await fetch(`${PUBLIC_URL}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, body: parsed as T };
}

/** A real photo: a JPEG of the given size with a colour gradient, and EXIF to be stripped. */
export async function photo(width = 800, height = 600, hue = 30): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = hue;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).withMetadata({ exif: { IFD0: { Artist: 'farm test' } } }).toBuffer();
}

export function imageForm(data: Buffer, name: string, type = 'image/jpeg'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  return form;
}

export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
