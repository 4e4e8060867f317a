// Keycloak for real: the test user signs in through the code + PKCE flow, a service accepts the
// token, and rejects it once tampered with.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { claimsOf, signInWithPassword, SignInRefused } from '../support/keycloak.js';
import { PUBLIC_URL } from '../support/env.js';

const state = process.env.TUBER_STATE ?? '.run';
const testPassword = () => readFileSync(`${state}/secrets/keycloak-test-user-password`, 'utf8').trim();

describe('Keycloak realm tuber', () => {
  it('publishes its OpenID configuration through the gateway with the public issuer', async () => {
    const discovery = await (await fetch(`${PUBLIC_URL}/auth/realms/tuber/.well-known/openid-configuration`)).json();
    expect(discovery.issuer).toBe(`${PUBLIC_URL}/auth/realms/tuber`);
    expect(discovery.code_challenge_methods_supported).toContain('S256');
  });

  it('serves services directly on loopback (backchannel) with the same public issuer and its signing keys', async () => {
    const direct = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth/realms/tuber`;
    const discovery = await (await fetch(`${direct}/.well-known/openid-configuration`)).json();
    expect(discovery.issuer).toBe(`${PUBLIC_URL}/auth/realms/tuber`);
    expect(discovery.jwks_uri).toBe(`${direct}/protocol/openid-connect/certs`);
    const jwks = await (await fetch(discovery.jwks_uri)).json();
    expect(jwks.keys.some((key: { use?: string; alg?: string }) => key.use === 'sig' && key.alg === 'RS256')).toBe(true);
  });

  it('signs the test user in with code + PKCE; the token carries audience, role and profile claims', async () => {
    const { accessToken } = await signInWithPassword('test.farmer@tuber.local', testPassword());
    const claims = claimsOf(accessToken);
    expect(claims.iss).toBe(`${PUBLIC_URL}/auth/realms/tuber`);
    expect([claims.aud].flat()).toContain('tuber-api');
    expect(claims.realm_access.roles).toContain('farmer');
    expect(claims).toMatchObject({ user_type: 'farmer', business_name: 'Test Farm', tuber: ['yam', 'cassava'] });
  });

  it('refuses a wrong password', async () => {
    await expect(signInWithPassword('test.farmer@tuber.local', 'not-the-password')).rejects.toBeInstanceOf(SignInRefused);
  });

  it('has a service accept the token and reject it tampered with', async () => {
    const { accessToken } = await signInWithPassword('test.farmer@tuber.local', testPassword());
    const session = await fetch(`${PUBLIC_URL}/api/profile/session`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ email: 'test.farmer@tuber.local', user_type: 'farmer', roles: expect.arrayContaining(['farmer']) });

    const [header, payload, signature] = accessToken.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claimsOf(accessToken), realm_access: { roles: ['buyer', 'farmer', 'admin'] } })).toString('base64url');
    for (const bad of [`${header}.${forged}.${signature}`, `${header}.${payload}.${signature!.slice(0, -4)}AAAA`]) {
      const answer = await fetch(`${PUBLIC_URL}/api/profile/session`, { headers: { authorization: `Bearer ${bad}` } });
      expect(answer.status).toBe(401);
    }
  });
});
