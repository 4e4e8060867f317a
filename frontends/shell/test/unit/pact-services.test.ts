// Consumer-driven contracts (Pact) of the shell with three services, each its own pact: auth (the account keeps
// the chosen language), orders (the unread-requests badge) and profile (/profile's redirect and the first-login
// profile step). Through the shell's API client set up as appApiClient does it, for a signed-in buyer; mock servers only.
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { fetchUnreadCount } from '../../src/counters/unreadPoller.js';
import { buyStreamTicket } from '../../src/counters/unreadStream.js';
import { networkAwareFetch } from '../../src/offline/networkStatus.js';
import { localeBody } from '../../src/ShellRoot.js';
import { ALREADY_SET_UP, createMyProfile } from '../../src/session/profileSetup.js';
import { dashboardHome } from '../../src/session/redirects.js';

const { boolean, integer, string, regex } = MatchersV3;
const authDir = pactDir();
const ordersDir = pactDir();
const profileDir = pactDir();
const auth = new PactV3({ consumer: 'shell', provider: 'auth', dir: authDir, logLevel: 'error' });
const orders = new PactV3({ consumer: 'shell', provider: 'orders', dir: ordersDir, logLevel: 'error' });
const profile = new PactV3({ consumer: 'shell', provider: 'profile', dir: profileDir, logLevel: 'error' });
afterAll(() => {
  expect(pactDrift(authDir, 'shell-auth.json')).toBeNull();
  expect(pactDrift(ordersDir, 'shell-orders.json')).toBeNull();
  expect(pactDrift(profileDir, 'shell-profile.json')).toBeNull();
});

const buyerToken = 'a-buyer-access-token';
/** appApiClient's client (appSession.ts), pointed at the mock server. */
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => buyerToken, fetch: networkAwareFetch });
const authorization = regex('Bearer .+', `Bearer ${buyerToken}`);

describe('pact: shell → auth', () => {
  it('the account keeps the language chosen on the page', async () => {
    // rememberLocale sends localeBody(getLocale()); English here, whatever language this machine's Node reports.
    const body = localeBody('en');
    auth
      .uponReceiving("the signed-in buyer's language kept with the account")
      .withRequest({
        method: 'PUT',
        path: '/api/auth/me/locale',
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body,
      })
      // The shell reads nothing of the answer: a success is what makes it remember the language was sent.
      .willRespondWith({ status: 200 });
    await auth.executeTest(async (server) => {
      const kept = await api(server.url)
        .put('/auth/me/locale', body)
        .then(
          () => 'kept',
          () => 'not kept',
        );
      expect(kept).toBe('kept');
    });
  });
});

describe('pact: shell → orders', () => {
  it('the unread-requests count', async () => {
    orders
      .uponReceiving("the buyer's unread requests count")
      .withRequest({ method: 'GET', path: '/api/orders/unread', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, body: { count: integer(0) } });
    await orders.executeTest(async (server) => {
      expect(await fetchUnreadCount(api(server.url))).toBe(0);
    });
  });
});

describe('pact: shell → orders (live unread counts, ADR 0067)', () => {
  it('a single-use ticket for the live unread stream', async () => {
    orders
      .uponReceiving("a ticket for the buyer's live unread stream")
      .withRequest({
        method: 'POST',
        path: '/api/orders/unread/ticket',
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 201, body: { ticket: regex('^[A-Za-z0-9_-]{43}$', 'T'.repeat(43)) } });
    await orders.executeTest(async (server) => {
      expect(await buyStreamTicket(api(server.url))).toBe('T'.repeat(43));
    });
  });
});

describe('pact: shell → profile', () => {
  it('/profile: the profile says where the dashboard is', async () => {
    profile
      .uponReceiving("the signed-in buyer's profile, for its user type")
      .withRequest({ method: 'GET', path: '/api/profile/me', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, body: { user_type: regex('buyer|farmer', 'buyer') } });
    await profile.executeTest(async (server) => {
      // ProfileRedirectPage's request and its redirect.
      const found = await api(server.url).get<{ user_type?: string }>('/profile/me');
      expect(dashboardHome(found.user_type)).toBe('/dashboard/buyer');
    });
  });

  it('the first-login profile step, for a buyer whose profile is already set up', async () => {
    profile
      .uponReceiving("the buyer's profile creation asked for again")
      .withRequest({ method: 'POST', path: '/api/profile/me', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, body: { created: boolean(false), message: string(ALREADY_SET_UP) } });
    await profile.executeTest(async (server) => {
      // ShellRoot shows the message only when the profile was just created.
      expect(await createMyProfile(api(server.url))).toEqual({ created: false, message: ALREADY_SET_UP });
    });
  });
});
