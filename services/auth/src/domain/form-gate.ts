// The account forms' gate (issue 24, docs/adr/0068): sign-up, resend, forgot and reset cost a mail, an
// account or a token guess, and nothing names the person who posts them but the address. A carrier address
// is thousands of people, so a wall per address would lock all of them out for one flooder. Instead:
//  - the first `freePerMinute` posts a minute from an address to a form go through as they are;
//  - past that, each post must carry a solved proof of work (ALTCHA v2, PBKDF2/SHA-256) that costs its
//    sender some CPU, more the busier the address: a person waits a second or two once, a flooder pays for
//    every post;
//  - a ceiling on the proven posts per address (`ceilingPerMinute`) stays as the last wall. Only proven posts
//    count towards it: a flooder who does not pay must not push the people who do into a wall.
// An unproven post costs the service one Redis script and one short key derivation (the challenge's), and
// the gateway's carrier-sized ceiling per address bounds how many arrive.
// A proof is taken once (Redis SET NX on its signature) and lives 5 minutes. The challenge is signed with a
// key derived from the service's Keycloak client secret, so every replica checks what any replica issued.
//
//   auth:forms:<METHOD><route>-<address>:<minute> → posts in that clock minute (kept two minutes)
//   auth:forms:proven:<METHOD><route>-<address>   → proven posts in the current minute (PEXPIRE on the first)
//   auth:proof:<signature>                      → "1", EX until the challenge expires
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { hkdfSync } from 'node:crypto';
import type { RedisClient } from '@tuber/kit';

export const PROOF_ALGORITHM = 'PBKDF2/SHA-256';
/**
 * PBKDF2 rounds per try: the browser's WebCrypto runs them natively, about as fast as an attacker's own code
 * (measured: 125 ms in WebCrypto, 97 ms in Node's OpenSSL for the same 500 tries), where plain SHA-256 tries
 * cost a browser 25 times what they cost native code. Small enough that issuing a challenge (one derivation)
 * costs the service about 0.2 ms.
 */
export const PROOF_COST = 1_000;
/** A challenge's life: long enough for a slow phone, short enough that solved proofs cannot be stockpiled. */
export const PROOF_TTL_SECONDS = 300;
/** The hardest level: the counter range doubles per level above the first. */
export const MAX_LEVEL = 3;

export interface FormGateOptions {
  redis: RedisClient;
  /** The secret the challenges' HMAC keys are derived from (never sent anywhere). */
  secret: string;
  /** Posts a minute per address and form that need no proof. */
  freePerMinute: number;
  /** Posts a minute per address and form beyond which even a proof is refused. */
  ceilingPerMinute: number;
  /** The first level's largest counter: a solve tries on average three quarters of it. */
  baseCounter: number;
  /** Longest wait for Redis; after it the form answers 503 (the gate is closed, not open, while Redis is away). */
  redisTimeoutMs?: number;
  /** Milliseconds since the epoch; a test moves it to a minute's turn. Rate limits keep real time. */
  clock?: () => number;
}

export type Admission =
  | { kind: 'free' }
  | { kind: 'proven' }
  | { kind: 'proof-required'; challenge: string; level: number; reason: 'none' | 'invalid' | 'expired' | 'used' }
  | { kind: 'ceiling'; seconds: number };

const COUNT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

/** Counts a post in this minute's key and reads the previous minute's (KEYS[1], KEYS[2]). */
const COUNT_SLIDING = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, tonumber(redis.call('GET', KEYS[2]) or '0')}`;

const MINUTE_MS = 60_000;

/**
 * The posts of the last minute, estimated from two clock minutes' counts: all of this minute's, and the share
 * of the previous minute's that still lies within the last 60 s (as if its posts were spread evenly). A fixed
 * minute forgot a flood at every turn of the clock: for the first posts of each minute a busy address looked
 * quiet, and the flooder's posts went through free (the flake of carrier-address.test.ts, 29 Nov 2026).
 */
export function postsInLastMinute(current: number, previous: number, msIntoMinute: number): number {
  return current + previous * Math.max(0, (MINUTE_MS - msIntoMinute) / MINUTE_MS);
}

const toBase64url = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function fromBase64url(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isProof(value: unknown): value is { challenge: Challenge; solution: Solution } {
  if (!value || typeof value !== 'object') return false;
  const { challenge, solution } = value as { challenge?: unknown; solution?: unknown };
  return (
    !!challenge &&
    typeof challenge === 'object' &&
    typeof (challenge as Challenge).signature === 'string' &&
    !!(challenge as Challenge).parameters &&
    typeof (challenge as Challenge).parameters === 'object' &&
    !!solution &&
    typeof solution === 'object' &&
    typeof (solution as Solution).counter === 'number' &&
    typeof (solution as Solution).derivedKey === 'string'
  );
}

/** The level a count asks for: 0 up to the free posts, then one more each time the count doubles. */
export function levelOf(count: number, freePerMinute: number): number {
  if (count <= freePerMinute) return 0;
  return Math.min(MAX_LEVEL, 1 + Math.floor(Math.log2(count / freePerMinute)));
}

export class FormGate {
  readonly #signatureSecret: string;
  readonly #keySecret: string;

  constructor(private readonly options: FormGateOptions) {
    const derive = (label: string) => Buffer.from(hkdfSync('sha256', options.secret, 'tuber-auth', label, 32)).toString('base64url');
    this.#signatureSecret = derive('proof-of-work challenge');
    this.#keySecret = derive('proof-of-work key');
  }

  /** Counts this post and says whether it may go on. `proof` is the PROOF_HEADER's value, if any. */
  async admit(form: string, address: string, proof: string | undefined): Promise<Admission> {
    const level = levelOf(await this.#recentPosts(`auth:forms:${form}-${address}`), this.options.freePerMinute);
    if (level === 0) return { kind: 'free' };
    const reason = proof === undefined ? 'none' : await this.redeem(proof);
    if (reason !== 'ok') return { kind: 'proof-required', challenge: await this.challenge(level), level, reason };
    const proven = await this.#count(`auth:forms:proven:${form}-${address}`);
    if (proven.count > this.options.ceilingPerMinute) return { kind: 'ceiling', seconds: Math.max(1, Math.ceil(proven.ttlMs / 1000)) };
    return { kind: 'proven' };
  }

  /** A fresh challenge of this level, as the client receives it (base64url JSON). */
  async challenge(level: number): Promise<string> {
    const top = this.options.baseCounter * 2 ** (Math.max(1, level) - 1);
    const challenge = await createChallenge({
      algorithm: PROOF_ALGORITHM,
      cost: PROOF_COST,
      counter: randomInt(Math.ceil(top / 2), top),
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + PROOF_TTL_SECONDS,
      hmacSignatureSecret: this.#signatureSecret,
      hmacKeySignatureSecret: this.#keySecret,
    });
    return toBase64url(challenge);
  }

  /** Checks a proof and takes it (once): 'ok', or why it is not accepted. */
  async redeem(header: string): Promise<'ok' | 'invalid' | 'expired' | 'used'> {
    if (header.length > 4096) return 'invalid';
    const proof = fromBase64url(header);
    if (!isProof(proof) || proof.challenge.parameters.algorithm !== PROOF_ALGORITHM || proof.challenge.parameters.cost !== PROOF_COST)
      return 'invalid';
    // A proof already taken costs one read, not a key derivation.
    const used = `auth:proof:${proof.challenge.signature!}`;
    if ((await this.#withTimeout(this.options.redis.exists(used))) === 1) return 'used';
    let result: Awaited<ReturnType<typeof verifySolution>>;
    try {
      result = await verifySolution({
        challenge: proof.challenge,
        solution: proof.solution,
        deriveKey,
        hmacSignatureSecret: this.#signatureSecret,
        hmacKeySignatureSecret: this.#keySecret,
      });
    } catch {
      return 'invalid';
    }
    if (result.expired) return 'expired';
    if (!result.verified) return 'invalid';
    const first = await this.#withTimeout(
      this.options.redis.set(used, '1', {
        expiration: { type: 'EX', value: PROOF_TTL_SECONDS + 60 },
        condition: 'NX',
      }),
    );
    return first === 'OK' ? 'ok' : 'used';
  }

  async #recentPosts(prefix: string): Promise<number> {
    const at = (this.options.clock ?? Date.now)();
    const minute = Math.floor(at / MINUTE_MS);
    const reply = (await this.#withTimeout(
      this.options.redis.eval(COUNT_SLIDING, {
        keys: [`${prefix}:${minute}`, `${prefix}:${minute - 1}`],
        arguments: [String(2 * MINUTE_MS)],
      }),
    )) as [number, number];
    return postsInLastMinute(Number(reply[0]), Number(reply[1]), at - minute * MINUTE_MS);
  }

  async #count(key: string): Promise<{ count: number; ttlMs: number }> {
    const reply = (await this.#withTimeout(this.options.redis.eval(COUNT, { keys: [key], arguments: ['60000'] }))) as [number, number];
    return { count: Number(reply[0]), ttlMs: Math.max(0, Number(reply[1])) };
  }

  async #withTimeout<T>(work: Promise<T>): Promise<T> {
    const ms = this.options.redisTimeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
