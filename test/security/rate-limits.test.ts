// Bursts on the two doors attackers hammer, forgot-password and Keycloak's sign-in form, each
// request claiming another client address: the limits must hold (429) because the gateway sets the
// client address itself. Throwaway addresses and a throwaway account are used; bursts stop at the
// first 429, and the file waits for the limits to clear so other testers of the shared stack are
// not locked out afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createAccount, deleteAccount } from '../support/accounts.js';
import { isErrorShape, PUBLIC_URL, sleep } from './support/stack.js';
import { denialChecked } from './support/tally.js';

const MAX_BURST = 80;
let n = 0;
/** A different made-up client address for every request, in every header a proxy might read. */
function spoofed(): Record<string, string> {
  n += 1;
  const ip = `203.0.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  return {
    'x-forwarded-for': ip,
    'x-real-ip': ip,
    forwarded: `for=${ip}`,
    'true-client-ip': ip,
    'cf-connecting-ip': ip,
    'x-client-ip': ip,
  };
}

async function burst(send: () => Promise<Response>, parallel = 5): Promise<{ statuses: number[]; limited?: Response }> {
  const statuses: number[] = [];
  while (statuses.length < MAX_BURST) {
    const answers = await Promise.all(Array.from({ length: parallel }, send));
    let limited: Response | undefined;
    for (const answer of answers) {
      statuses.push(answer.status);
      if (answer.status === 429 && !limited) limited = answer;
      else await answer.arrayBuffer();
    }
    if (limited) return { statuses, limited };
  }
  return { statuses };
}

async function waitUntilClear(probe: () => Promise<Response>, retryAfter: string | null) {
  await sleep(Math.min(Number(retryAfter) || 1, 65) * 1000);
  const deadline = Date.now() + 70_000;
  for (;;) {
    const answer = await probe();
    await answer.arrayBuffer();
    if (answer.status !== 429 || Date.now() > deadline) return;
    await sleep(Math.min(Number(answer.headers.get('retry-after')) || 2, 30) * 1000);
  }
}

describe('forgot-password', () => {
  const forgot = (headers: Record<string, string> = spoofed()) =>
    fetch(`${PUBLIC_URL}/api/auth/password/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: `burst-${randomUUID().slice(0, 8)}@test.tuber.local` }),
    });
  let retryAfter: string | null = null;

  afterAll(async () => {
    await waitUntilClear(() => forgot(), retryAfter);
  }, 150_000);

  it('a burst gets 429 whatever X-Forwarded-For says, with a message', async () => {
    const { statuses, limited } = await burst(() => forgot());
    expect(limited, `no 429 in ${statuses.length} requests: ${statuses.join(',')}`).toBeDefined();
    retryAfter = limited!.headers.get('retry-after');
    const body = await limited!.json().catch(() => null);
    expect(isErrorShape(body, 429), `429 body: ${JSON.stringify(body)}`).toBe(true);
    denialChecked();
    // Still limited from yet another claimed address.
    const again = await forgot();
    expect(again.status).toBe(429);
    await again.arrayBuffer();
    denialChecked();
  });
});

describe('Keycloak sign-in form', () => {
  let account: { id: string; email: string; password: string };
  beforeAll(async () => {
    account = await createAccount({ role: 'buyer' });
  });
  afterAll(async () => {
    if (account) await deleteAccount(account.id);
  });

  /** Opens the login page once (its form action carries the session), then posts wrong passwords to it. */
  async function loginForm(): Promise<{ action: string; cookie: string }> {
    for (let attempt = 0; ; attempt++) {
      const page = await fetch(
        `${PUBLIC_URL}/auth/realms/tuber/protocol/openid-connect/auth?client_id=tuber-web&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/login/callback`)}&code_challenge=${'b'.repeat(43)}&code_challenge_method=S256&state=s&nonce=n`,
        { redirect: 'manual' },
      );
      const html = await page.text();
      const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (action) {
        const cookie = page.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
        return { action: action.replaceAll('&amp;', '&'), cookie };
      }
      if (attempt > 20) throw new Error(`no login form (HTTP ${page.status})`);
      await sleep(2_000);
    }
  }

  let form: { action: string; cookie: string } | undefined;

  afterAll(async () => {
    // The sign-in zone frees a place every couple of seconds: wait until one post gets through again.
    await waitUntilClear(
      () =>
        fetch(form?.action ?? `${PUBLIC_URL}/auth/realms/tuber/login-actions/authenticate`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'username=x&password=y',
        }),
      '2',
    );
  }, 150_000);

  it('a burst of sign-in posts gets 429 whatever X-Forwarded-For says', async () => {
    form = await loginForm();
    const post = () =>
      fetch(form!.action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form!.cookie, ...spoofed() },
        body: new URLSearchParams({ username: account.email, password: `wrong-${randomUUID()}`, credentialId: '' }),
      });
    // A parallel flood: the gateway queues a client that posts one at a time (slowed, not refused).
    const { statuses, limited } = await burst(post, 40);
    expect(limited, `no 429 in ${statuses.length} sign-in posts: ${statuses.join(',')}`).toBeDefined();
    await limited!.arrayBuffer();
    denialChecked();
  });
});
