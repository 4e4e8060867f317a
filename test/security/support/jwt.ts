// Forged and tampered JWTs, made with node:crypto only.
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export type Claims = Record<string, unknown>;

export function decode(token: string): { header: Record<string, any>; claims: Claims; signature: Buffer } {
  const [header, payload, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')),
    claims: JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')),
    signature: Buffer.from(signature ?? '', 'base64url'),
  };
}

/** An unsigned token: `alg: none` and an empty signature. */
export function unsigned(header: Record<string, unknown>, claims: Claims): string {
  return `${b64({ ...header, alg: 'none' })}.${b64(claims)}.`;
}

/** HS256 with the given bytes as the HMAC key (the "public key as secret" confusion attack). */
export function hs256(header: Record<string, unknown>, claims: Claims, key: string | Buffer): string {
  const input = `${b64({ ...header, alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

/** RS256 with a private key of our own. */
export function rs256(header: Record<string, unknown>, claims: Claims, key: KeyObject): string {
  const input = `${b64({ ...header, alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** The token with one byte of its signature changed. */
export function flipSignatureByte(token: string, index = 10): string {
  const [header, payload, signature] = token.split('.');
  const bytes = Buffer.from(signature ?? '', 'base64url');
  const at = index % bytes.length;
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}

/** The token with one claim changed and the original signature kept. */
export function withClaim(token: string, name: string, value: unknown): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64({ ...decode(token).claims, [name]: value })}.${signature}`;
}

export function newRsaKey(): { privateKey: KeyObject; publicKey: KeyObject; privatePem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicKey, privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** Every way a JWK's public key is commonly written, as HMAC key candidates. */
export function publicKeyForms(jwk: Record<string, unknown>): { label: string; key: string | Buffer }[] {
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  const spki = key.export({ type: 'spki', format: 'pem' }).toString();
  const pkcs1 = key.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forms: { label: string; key: string | Buffer }[] = [
    { label: 'SPKI PEM', key: spki },
    { label: 'SPKI PEM without final newline', key: spki.trimEnd() },
    { label: 'PKCS#1 PEM', key: pkcs1 },
    { label: 'DER', key: key.export({ type: 'spki', format: 'der' }) },
    { label: 'JWK JSON', key: JSON.stringify(jwk) },
  ];
  const x5c = (jwk.x5c as string[] | undefined)?.[0];
  if (x5c)
    forms.push({
      label: 'certificate PEM',
      key: `-----BEGIN CERTIFICATE-----\n${x5c.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`,
    });
  return forms;
}

export { createPrivateKey };
