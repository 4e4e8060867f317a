// Signs in the way a browser does — authorization code with PKCE against the public tuber-web
// client, through the gateway — without a browser: fetch the login page, post the form with its
// cookies, take the code from the redirect, exchange it. (The password grant is not enabled.)
import { createHash, randomBytes } from 'node:crypto';
import { PUBLIC_URL } from './env.js';

const realm = `${PUBLIC_URL}/auth/realms/tuber/protocol/openid-connect`;
const redirectUri = `${PUBLIC_URL}/login/callback`; // the one sign-in callback of tuber-web (docs/adr/0018)

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
}

export class SignInRefused extends Error {
  constructor(
    message: string,
    readonly page: string,
  ) {
    super(message);
  }
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');
const decodeHtml = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&#x3d;', '=').replaceAll('&quot;', '"');

class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  }
  get header() {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface SignInOptions {
  /** Ticks the login page's "Remember me" box. */
  rememberMe?: boolean;
  /** The scopes asked for; `openid` when not given. */
  scope?: string;
}

export async function signInWithPassword(email: string, password: string, options: SignInOptions = {}): Promise<Tokens> {
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const jar = new CookieJar();
  const authorize = new URL(`${realm}/auth`);
  authorize.search = new URLSearchParams({
    client_id: 'tuber-web',
    response_type: 'code',
    scope: options.scope ?? 'openid',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: b64url(randomBytes(8)),
    nonce: b64url(randomBytes(8)),
  }).toString();
  const loginPage = await fetch(authorize, { redirect: 'manual' });
  jar.take(loginPage);
  const html = await loginPage.text();
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new SignInRefused(`no login form (HTTP ${loginPage.status})`, html);

  const submitted = await fetch(decodeHtml(action), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header },
    body: new URLSearchParams({ username: email, password, credentialId: '', ...(options.rememberMe ? { rememberMe: 'on' } : {}) }),
  });
  const location = submitted.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) {
    const page = await submitted.text();
    const message =
      /<span[^>]*id="input-error"[^>]*>\s*([^<]+?)\s*</.exec(page)?.[1] ??
      /class="[^"]*kc-feedback-text[^"]*"[^>]*>\s*([^<]+?)\s*</.exec(page)?.[1] ??
      `HTTP ${submitted.status}`;
    throw new SignInRefused(decodeHtml(message), page);
  }

  const tokenResponse = await fetch(`${realm}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'tuber-web',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  const tokens = (await tokenResponse.json()) as {
    access_token?: string;
    refresh_token?: string;
    id_token?: string;
    error_description?: string;
  };
  if (!tokens.access_token) throw new SignInRefused(tokens.error_description ?? `token endpoint answered ${tokenResponse.status}`, '');
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? '', idToken: tokens.id_token ?? '' };
}

/** The claims of a JWT, unverified (for test assertions only). */
export function claimsOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/**
 * Follows Keycloak's e-mail verification link as a person would: open it, then press the
 * "Click here to proceed" link on the confirmation page (same cookies). Returns the final status.
 */
export async function followVerificationLink(link: string): Promise<number> {
  const jar = new CookieJar();
  const first = await fetch(link, { redirect: 'manual' });
  jar.take(first);
  const html = await first.text();
  const proceed = /<div id="kc-info-message"[^>]*>[\s\S]*?<a [^>]*href="([^"]+)"/.exec(html)?.[1];
  if (!proceed) return first.status;
  const second = await fetch(decodeHtml(proceed), { redirect: 'manual', headers: { cookie: jar.header } });
  await second.text();
  return second.status;
}
