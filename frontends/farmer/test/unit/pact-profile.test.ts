// Pact of the farmer remote with the profile service: the farmer's own profile (the profile page, and the
// tuber choice of the product form), a save of it, with the profile form's own change builder, and the switch of
// the new-request SMS alerts, through the shell's API client. contracts/pacts/farmer-profile.json must match it (make pacts).
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { farmerProfileChange, valuesOf } from '../../src/profile/profileForm.js';
import type { FarmerProfile } from '../../src/shared/types.js';

const { boolean, eachLike, string, regex } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'farmer', provider: 'profile', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'farmer-profile.json')).toBeNull());

/** The example farmer, as the page would have loaded it. */
const loaded: FarmerProfile = {
  user_id: 'b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44',
  user_type: 'farmer',
  email: 'ade@example.com',
  firstname: 'Ade',
  lastname: 'Bello',
  phone: '2348031234567',
  business_name: 'Ade Farms',
  location: 'Ibadan',
  tuber: ['yam'],
};

/**
 * The profile as FarmerProfilePage (its fields, title, location, tubers; valuesOf for the form) and
 * useFarmerTubers read it. A farmer's profile always has its business name, location and tubers, though the
 * schema makes them optional (a buyer's has none).
 */
const profile = (location: unknown = string(loaded.location!)) => ({
  email: string(loaded.email),
  firstname: string(loaded.firstname),
  lastname: string(loaded.lastname),
  phone: string(loaded.phone),
  business_name: string(loaded.business_name!),
  location,
  tuber: eachLike(loaded.tuber![0]!),
});

const farmerToken = 'a-farmer-access-token';
const authorization = regex('Bearer .+', `Bearer ${farmerToken}`);
const json = regex('application/json.*', 'application/json; charset=utf-8');
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => farmerToken });

describe('pact: farmer → profile', () => {
  it("the farmer's own profile", async () => {
    pact
      .uponReceiving("the signed-in farmer's profile")
      .withRequest({ method: 'GET', path: '/api/profile/me', headers: { authorization, accept: 'application/json, application/problem+json' } })
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: profile() });
    await pact.executeTest(async (server) => {
      const mine = await api(server.url).get<FarmerProfile>('/profile/me');
      expect(valuesOf(mine)).toEqual({ business_name: 'Ade Farms', location: 'Ibadan', phone: '+234 803 123 4567', tuber: ['yam'] });
    });
  });

  it('saving the profile form: only what changed', async () => {
    // The form's own body: a new location and one more tuber (yam stays, so the farmer's products still fit).
    const before = valuesOf(loaded);
    const change = farmerProfileChange({ ...before, location: 'Oyo', tuber: ['yam', 'cassava'] }, before);
    expect(change).toEqual({ location: 'Oyo', tuber: ['yam', 'cassava'] });
    pact
      .uponReceiving("a change to the farmer's location and tubers")
      .withRequest({
        method: 'PATCH',
        path: '/api/profile/me',
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: change,
      })
      // The page shows the profile the service answers: the location saved is the one sent.
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: profile('Oyo') });
    await pact.executeTest(async (server) => {
      const saved = await api(server.url).patch<FarmerProfile>('/profile/me', change);
      expect(saved.location).toBe('Oyo');
      expect(saved.tuber).toContain('yam');
    });
  });

  it('switches the new-request SMS alerts off (issue 26)', async () => {
    // The profile page's SmsAlerts switch sends only { sms_alerts }. Off needs no verified phone, so any farmer
    // can be asked it (on needs a number verified by SMS: 400 SMS_ALERTS_NEED_VERIFIED_PHONE).
    const change = { sms_alerts: false };
    pact
      .uponReceiving("the farmer's new-request SMS alerts switched off")
      .withRequest({
        method: 'PATCH',
        path: '/api/profile/me',
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: change,
      })
      // The page shows the profile answered: the switch as saved, and whether the number is verified (which
      // opens the switch and shows the phone check's badge).
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: { ...profile(), phone_verified: boolean(false), sms_alerts: false },
      });
    await pact.executeTest(async (server) => {
      const saved = await api(server.url).patch<FarmerProfile>('/profile/me', change);
      expect(saved.sms_alerts).toBe(false);
      expect(typeof saved.phone_verified).toBe('boolean');
    });
  });
});
