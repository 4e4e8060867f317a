// The realm's token-signing keys, fetched from its JWKS endpoint so that token checks cannot be
// turned against Keycloak: known keys are answered from memory, a token naming an unknown key
// (`kid`) causes at most one fetch per cool-down period however many such tokens arrive, fetches
// give up after a connect and a response timeout, and a fetch that fails says so (503), because
// "sign in again" would not help the user.
import { createPublicKey } from 'node:crypto';
import { Agent, request } from 'undici';
import { HttpError, unavailable } from '../errors.js';

export interface RealmKeysOptions {
  /** The realm's JWKS URL, e.g. http://127.0.0.1:8180/auth/realms/tuber/protocol/openid-connect/certs */
  jwksUrl: string;
  /** Giving up on a TCP connection to Keycloak after this long. */
  connectTimeoutMs?: number;
  /** Giving up on the answer (headers, then body) after this long. */
  responseTimeoutMs?: number;
  /** At most one fetch per this period after a successful one, whatever unknown `kid`s arrive. */
  cooldownMs?: number;
  /** After a failed fetch, the next try waits this long (503 meanwhile for unknown keys). */
  retryAfterFailureMs?: number;
  /** Known keys are refreshed in the background once the set is this old (a removed key stops working). */
  maxAgeMs?: number;
  now?: () => number;
}

interface Jwk {
  kid?: string;
  kty?: string;
  use?: string;
  alg?: string;
  [field: string]: unknown;
}

/** Thrown when the keys cannot be had: Keycloak down, unreachable, slow or answering nonsense. */
export const keysUnavailable = () =>
  unavailable(
    'SIGN_IN_UNAVAILABLE',
    'Sign-in cannot be checked right now because the sign-in service does not answer. Please try again in a minute.');

export class RealmKeys {
  readonly #options: Required<Omit<RealmKeysOptions, 'jwksUrl' | 'now'>> & { jwksUrl: string; now: () => number };
  readonly #agent: Agent;
  #keys = new Map<string, string>();
  #loadedAt = Number.NEGATIVE_INFINITY;
  #lastAttempt = Number.NEGATIVE_INFINITY;
  #lastFailed = false;
  #inFlight: Promise<void> | undefined;
  /** How many times the JWKS endpoint was asked (for tests and logs). */
  fetches = 0;

  constructor(options: RealmKeysOptions) {
    this.#options = {
      connectTimeoutMs: 2_000,
      responseTimeoutMs: 3_000,
      cooldownMs: 30_000,
      retryAfterFailureMs: 5_000,
      maxAgeMs: 10 * 60_000,
      now: Date.now,
      ...options,
    };
    this.#agent = new Agent({
      connect: { timeout: this.#options.connectTimeoutMs },
      headersTimeout: this.#options.responseTimeoutMs,
      bodyTimeout: this.#options.responseTimeoutMs,
    });
  }

  /** The PEM public key for `kid`; 401 when the realm has no such key, 503 when the keys cannot be fetched. */
  async publicKey(kid: string | undefined): Promise<string> {
    if (!kid) throw new HttpError(401, { code: 'TOKEN_INVALID', message: 'The access token does not name its signing key. Sign in again.' });
    const known = this.#keys.get(kid);
    if (known) {
      // A stale set is refreshed behind the answer; a failure keeps the keys we have.
      if (this.#age() > this.#options.maxAgeMs && !this.#coolingDown()) void this.refresh().catch(() => undefined);
      return known;
    }
    if (this.#inFlight) await this.#inFlight.catch(() => undefined);
    else if (!this.#coolingDown()) await this.refresh().catch(() => undefined);
    const found = this.#keys.get(kid);
    if (found) return found;
    if (this.#lastFailed) throw keysUnavailable();
    throw new HttpError(401, { code: 'TOKEN_INVALID', message: 'The access token was not signed by a key of this realm. Sign in again.' });
  }

  /** True once a key set has been loaded: tokens can be checked from memory, with or without Keycloak. */
  get loaded(): boolean {
    return this.#keys.size > 0;
  }

  /**
   * For /ready: resolves when the keys are in memory (a Keycloak outage later does not matter, known
   * keys keep working); otherwise tries a fetch (at most one per retry period) and rejects with why.
   */
  async ready(): Promise<void> {
    if (this.loaded) return;
    if (this.#inFlight) await this.#inFlight.catch(() => undefined);
    else if (!this.#coolingDown()) await this.refresh().catch(() => undefined);
    if (!this.loaded) throw new Error("the realm's signing keys are not loaded yet: Keycloak has not answered since this service started");
  }

  /** Fetches the key set once (concurrent callers share the fetch). Rejects when it fails. */
  refresh(): Promise<void> {
    this.#inFlight ??= this.#fetch().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  #age(): number {
    return this.#options.now() - this.#loadedAt;
  }

  #coolingDown(): boolean {
    const wait = this.#lastFailed ? this.#options.retryAfterFailureMs : this.#options.cooldownMs;
    return this.#options.now() - this.#lastAttempt < wait;
  }

  async #fetch(): Promise<void> {
    this.#lastAttempt = this.#options.now();
    this.fetches += 1;
    try {
      const answer = await request(this.#options.jwksUrl, {
        dispatcher: this.#agent,
        headers: { accept: 'application/json' },
        // Covers the whole exchange too, in case the server trickles bytes.
        signal: AbortSignal.timeout(this.#options.connectTimeoutMs + this.#options.responseTimeoutMs),
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new Error(`the JWKS endpoint answered ${answer.statusCode}`);
      }
      const body = (await answer.body.json()) as { keys?: Jwk[] };
      const keys = new Map<string, string>();
      for (const jwk of body.keys ?? []) {
        if (!jwk.kid || jwk.kty !== 'RSA' || (jwk.use && jwk.use !== 'sig') || (jwk.alg && jwk.alg !== 'RS256')) continue;
        const pem = createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' }).export({
          type: 'spki',
          format: 'pem',
        });
        keys.set(jwk.kid, pem.toString());
      }
      if (keys.size === 0) throw new Error('the JWKS has no RS256 signing key');
      this.#keys = keys;
      this.#loadedAt = this.#options.now();
      this.#lastFailed = false;
    } catch (err) {
      this.#lastFailed = true;
      throw err;
    }
  }
}
