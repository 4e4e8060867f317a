// Consumer-driven contract (Pact) of the buyer remote with the profile service: the buyer's details page (its
// read and its save, with the page's own form rules, and its phone check by SMS) and the farmer's contact card of
// the Contact Farmer modal.
// Mock server only; contracts/pacts/buyer-profile.json must agree with what these tests ask for.
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { farmerContactPath, type BuyerProfile, type FarmerContact } from '../../src/catalog/types.js';
import { buyerProfileChange, checkBuyerProfile, valuesOf } from '../../src/profile/profileForm.js';
import { farmPath } from '../../src/trust/trustTypes.js';
import { displayPhone, PHONE_CODE_DIGITS, type FarmerPublic, type PhoneCodeSent } from '@tuber/contracts';

const { eachLike, string, regex, integer, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'buyer', provider: 'profile', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'buyer-profile.json')).toBeNull());

const buyerToken = 'a-buyer-access-token';
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => buyerToken });
const authorization = regex('Bearer .+', `Bearer ${buyerToken}`);

/** The buyer's profile as the details page shows it (valuesOf and the e-mail field). */
const profile = {
  email: string('ada.buyer@example.test'),
  firstname: string('Ada'),
  lastname: string('Okafor'),
  // Any form the account holds: the page shows it through displayPhone, which leaves a non-E.164 number as it is.
  phone: string('2348031234567'),
};

/** The profile as loaded, as the page's Edit mode starts from it (valuesOf). */
const loaded: BuyerProfile = {
  user_id: 'u1',
  user_type: 'buyer',
  email: 'ada.buyer@example.test',
  firstname: 'Ada',
  lastname: 'Okafor',
  phone: '2348031234567',
};

describe('pact: buyer → profile', () => {
  it('the buyer’s details', async () => {
    pact
      .uponReceiving("the buyer's own profile")
      .withRequest({ method: 'GET', path: '/api/profile/me', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, body: profile });
    await pact.executeTest(async (server) => {
      const found = await api(server.url).get<BuyerProfile>('/profile/me');
      expect({ ...valuesOf(found), email: found.email }).toEqual({
        firstname: 'Ada',
        lastname: 'Okafor',
        phone: '+234 803 123 4567',
        email: 'ada.buyer@example.test',
      });
    });
  });

  it('saves a changed first name and phone', async () => {
    // What the Edit form sends after its checks: only the fields that differ, trimmed, the phone as typed.
    const values = { firstname: ' Adaeze ', lastname: 'Okafor', phone: '0805 987 6543' };
    expect(checkBuyerProfile(values)).toEqual({});
    const change = buyerProfileChange(values, valuesOf(loaded));
    pact
      .uponReceiving("a change to the buyer's first name and phone")
      .withRequest({
        method: 'PATCH',
        path: '/api/profile/me',
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: change,
      })
      // The service answers the phone in E.164 digits; the page shows what it answers.
      .willRespondWith({ status: 200, body: { ...profile, firstname: string('Adaeze'), phone: regex('^234[0-9]{10}$', '2348059876543') } });
    await pact.executeTest(async (server) => {
      const saved = await api(server.url).patch<BuyerProfile>('/profile/me', change);
      expect(valuesOf(saved)).toMatchObject({ firstname: 'Adaeze', phone: '+234 805 987 6543' });
    });
  });

  it("a farmer's contact card", async () => {
    const farmerId = 'b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44';
    pact
      .given('a product is listed')
      .uponReceiving("the contact card of a listed product's farmer")
      .withRequest({
        method: 'GET',
        path: fromProviderState('/api/profile/farmers/${farmerId}/contact', `/api${farmerContactPath(farmerId)}`),
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        body: {
          business_name: string('Ade Farms'),
          location: string('Ibadan'),
          phone: string('2348031234567'),
          email: string('ade.farms@example.test'),
          tuber: eachLike(string('yam')),
        },
      });
    await pact.executeTest(async (server) => {
      const contact = await api(server.url).get<FarmerContact>(farmerContactPath(farmerId));
      // The modal's title, "grows" line, tel:/mailto: links and WhatsApp button.
      expect(contact).toMatchObject({
        business_name: 'Ade Farms',
        location: 'Ibadan',
        phone: '2348031234567',
        email: 'ade.farms@example.test',
        tuber: ['yam'],
      });
    });
  });

  it('a farm for its farmer page, without contact details (issue 26)', async () => {
    const farmerId = 'b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44';
    pact
      .given('a product is listed')
      .uponReceiving("the farm of a listed product's farmer")
      .withRequest({
        method: 'GET',
        path: fromProviderState('/api/profile/farmers/${farmerId}', `/api${farmPath(farmerId)}`),
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        body: {
          farmer_id: fromProviderState('${farmerId}', farmerId),
          business_name: string('Ade Farms'),
          location: string('Ibadan'),
          tuber: eachLike(string('yam')),
          member_since: regex('\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z', '2026-11-28T10:00:00.000Z'),
        },
      });
    await pact.executeTest(async (server) => {
      const farm = await api(server.url).get<FarmerPublic>(farmPath(farmerId));
      expect(farm).toMatchObject({ business_name: 'Ade Farms', tuber: ['yam'] });
      expect(farm).not.toHaveProperty('phone');
    });
  });

  // Issue 26: "Verify by SMS" on the details page (the UI kit's PhoneCheck, frontends/ui/src/components/phoneCheck.tsx):
  // the same two calls, through the same API client. The provider states give a fresh account and a number of its
  // own each time (one code a minute, five a day per account and per number).
  const ISO_TIME = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z';
  const newNumber = '2348091234567';

  it('asks for a code by SMS to the profile’s number', async () => {
    pact
      .given('a buyer with a new phone number')
      .uponReceiving("a request for a code by SMS to the buyer's phone")
      .withRequest({ method: 'POST', path: '/api/profile/me/phone/code', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({
        status: 202,
        body: {
          // The number the code went to, in E.164 digits, shown through displayPhone ("we sent a code to …").
          phone: regex('^234[0-9]{10}$', newNumber),
          expires_at: regex(ISO_TIME, '2026-11-29T10:10:00.000Z'),
          // The resend countdown.
          resend_at: regex(ISO_TIME, '2026-11-29T10:01:00.000Z'),
          tries: integer(5),
        },
      });
    await pact.executeTest(async (server) => {
      const sent = await api(server.url).post<PhoneCodeSent>('/profile/me/phone/code');
      expect(displayPhone(sent.phone)).toBe('+234 809 123 4567');
      expect(Number.isNaN(Date.parse(sent.resend_at))).toBe(false);
    });
  });

  it('sends the code back: the number is verified', async () => {
    const code = '123456';
    expect(code).toMatch(new RegExp(`^[0-9]{${PHONE_CODE_DIGITS}}$`));
    pact
      .given("a code was sent to the buyer's new phone number")
      .uponReceiving('the code from the SMS sent back')
      .withRequest({
        method: 'POST',
        path: '/api/profile/me/phone/verify',
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        // The code the SMS really carried, which the provider state reads off the SMS catcher.
        body: { code: fromProviderState('${code}', code) },
      })
      // The page shows the profile answered: its details, and the "Verified" badge instead of the check.
      .willRespondWith({ status: 200, body: { ...profile, phone: regex('^234[0-9]{10}$', newNumber), phone_verified: true } });
    await pact.executeTest(async (server) => {
      const saved = await api(server.url).post<BuyerProfile>('/profile/me/phone/verify', { code });
      expect(saved.phone_verified).toBe(true);
      expect(valuesOf(saved).phone).toBe('+234 809 123 4567');
    });
  });
});
