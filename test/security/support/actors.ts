// The people of the authorisation matrix: two buyers (the buyer, and buyer B who is never a party
// to the buyer's order requests) and two farmers (A and B), real Keycloak
// accounts signed in through the code + PKCE flow, with their profiles created. Tokens live about
// five minutes; token() signs in again shortly before one expires.
import { createAccount, deleteAccount, type AccountOptions } from '../../support/accounts.js';
import { signInWithPassword, SignInRefused, type Tokens } from '../../support/keycloak.js';
import { decode } from './jwt.js';
import { call, sleep } from './stack.js';

export interface Actor {
  role: 'buyer' | 'farmer';
  label: string;
  id: string;
  email: string;
  password: string;
  /**
   * A valid access token that stays valid for at least `validForMs` more (default a minute): signs in
   * again when the last one has less left.
   */
  token(validForMs?: number): Promise<string>;
  /** A fresh sign-in: access, refresh and ID token. */
  signIn(): Promise<Tokens>;
}

/** Sign in, waiting out the gateway's or Keycloak's rate limit if an earlier test tripped it. */
export async function signIn(email: string, password: string): Promise<Tokens> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      return await signInWithPassword(email, password);
    } catch (err) {
      const limited = err instanceof SignInRefused && /429|too many|wait/i.test(`${err.message} ${err.page.slice(0, 2000)}`);
      if (!limited || Date.now() > deadline) throw err;
      await sleep(3_000);
    }
  }
}

export async function makeActor(label: string, options: AccountOptions): Promise<Actor> {
  const account = await createAccount(options);
  let tokens: Tokens | undefined;
  let expiresAt = 0;
  const actor: Actor = {
    role: options.role,
    label,
    ...account,
    async signIn() {
      return signIn(account.email, account.password);
    },
    async token(validForMs = 60_000) {
      if (!tokens || Date.now() > expiresAt - validForMs) {
        tokens = await signIn(account.email, account.password);
        expiresAt = Number(decode(tokens.accessToken).claims.exp) * 1000;
      }
      return tokens.accessToken;
    },
  };
  const created = await call('POST', '/api/profile/me', { token: await actor.token() });
  if (created.status !== 201 && created.status !== 200) {
    throw new Error(`could not create the ${label}'s profile: ${created.status} ${created.text.slice(0, 200)}`);
  }
  return actor;
}

export interface Cast {
  buyer: Actor;
  buyerB: Actor;
  farmerA: Actor;
  farmerB: Actor;
}

export async function makeCast(): Promise<Cast> {
  const [buyer, buyerB, farmerA, farmerB] = await Promise.all([
    makeActor('buyer', { role: 'buyer' }),
    makeActor('buyer B', { role: 'buyer' }),
    makeActor('farmer A', { role: 'farmer', businessName: 'Ada Farms', location: 'Ibadan', tuber: ['yam', 'cassava'] }),
    makeActor('farmer B', { role: 'farmer', businessName: 'Bola Farms', location: 'Oyo', tuber: ['ginger'] }),
  ]);
  return { buyer, buyerB, farmerA, farmerB };
}

export async function disposeCast(cast: Partial<Cast> | Record<string, Actor | undefined> | undefined): Promise<void> {
  if (!cast) return;
  await Promise.all(Object.values(cast).map((actor: Actor | undefined) => actor && deleteAccount(actor.id)));
}
