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
  return new KeycloakBrowser().signIn(email, password, options);
}

/**
 * One browser's view of Keycloak: its cookies persist from one sign-in to the next, so a browser that
 * signed in before (with "Remember me") can come back without the login form, as a person's phone does.
 */
export class KeycloakBrowser {
  readonly jar = new CookieJar();

  /** Opens the authorization endpoint: a code at once (Keycloak knows this browser), or the login form's action. */
  async authorize(options: SignInOptions = {}): Promise<{ verifier: string; code?: string; action?: string; page: string; status: number }> {
    const verifier = b64url(randomBytes(32));
    const challenge = b64url(createHash('sha256').update(verifier).digest());
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
    const answer = await fetch(authorize, { redirect: 'manual', headers: this.jar.header ? { cookie: this.jar.header } : {} });
    this.jar.take(answer);
    const location = answer.headers.get('location');
    const code = location?.startsWith(redirectUri) ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
    const page = code ? '' : await answer.text();
    const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(page)?.[1];
    return { verifier, code, action: action ? decodeHtml(action) : undefined, page, status: answer.status };
  }

  /** Posts the login form once; the answer is the code, or the page Keycloak showed instead. */
  async submit(action: string, email: string, password: string, options: SignInOptions = {}): Promise<{ code?: string; page: string; status: number }> {
    const submitted = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: this.jar.header },
      body: new URLSearchParams({ username: email, password, credentialId: '', ...(options.rememberMe ? { rememberMe: 'on' } : {}) }),
    });
    this.jar.take(submitted);
    const location = submitted.headers.get('location');
    const code = location ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
    return { code, page: code ? '' : await submitted.text(), status: submitted.status };
  }

  /** Signs in with the login form (or without it, when Keycloak already knows this browser). */
  async signIn(email: string, password: string, options: SignInOptions = {}): Promise<Tokens> {
    const opened = await this.authorize(options);
    if (opened.code) return exchange(opened.code, opened.verifier);
    if (!opened.action) throw new SignInRefused(`no login form (HTTP ${opened.status})`, opened.page);
    const submitted = await this.submit(opened.action, email, password, options);
    if (!submitted.code) throw new SignInRefused(refusalOf(submitted.page, submitted.status), submitted.page);
    return exchange(submitted.code, opened.verifier);
  }

  /** Comes back without a password: only a browser Keycloak still knows gets tokens. */
  async resume(): Promise<Tokens> {
    const opened = await this.authorize();
    if (!opened.code) throw new SignInRefused(`Keycloak asked this browser to sign in again (HTTP ${opened.status})`, opened.page);
    return exchange(opened.code, opened.verifier);
  }
}

/** The message a refused login page shows. */
export function refusalOf(page: string, status: number): string {
  const message =
    /<(?:span|p)[^>]*id="input-error"[^>]*>\s*([^<]+?)\s*</.exec(page)?.[1] ??
    /class="[^"]*kc-feedback-text[^"]*"[^>]*>\s*([^<]+?)\s*</.exec(page)?.[1] ??
    `HTTP ${status}`;
  return decodeHtml(message);
}

async function exchange(code: string, verifier: string): Promise<Tokens> {
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

/** A refresh as keycloak-js does it: new tokens, or Keycloak's refusal. */
export async function refreshTokens(refreshToken: string): Promise<{ status: number; tokens?: Tokens; error?: string }> {
  const answer = await fetch(`${realm}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'tuber-web', refresh_token: refreshToken }),
  });
  const body = (await answer.json().catch(() => ({}))) as { access_token?: string; refresh_token?: string; id_token?: string; error_description?: string };
  if (!body.access_token) return { status: answer.status, error: body.error_description };
  return { status: answer.status, tokens: { accessToken: body.access_token, refreshToken: body.refresh_token ?? '', idToken: body.id_token ?? '' } };
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
