import { describe, expect, it } from 'vitest';
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import { checkFarmerProfile, farmerProfileChange, valuesOf } from '../../src/profile/profileForm.js';

const loaded = valuesOf({ business_name: 'Bisi Farms', location: 'Ogbomoso', phone: '2348034445555', tuber: ['yam'] } as never);

describe('the farmer profile form and Nigerian phone numbers', () => {
  it('shows a stored E.164 number the way people write it', () => expect(loaded.phone).toBe('+234 803 444 5555'));

  it('refuses a number that is not Nigerian with the services’ message', () => {
    expect(checkFarmerProfile({ ...loaded, phone: '12-34' }).phone).toBe(PHONE_E164_PROBLEM);
    expect(checkFarmerProfile({ ...loaded, phone: '+44 7911 123456' }).phone).toBe(PHONE_E164_PROBLEM);
    expect(checkFarmerProfile({ ...loaded, phone: '0803 444 5555' }).phone).toBeUndefined();
  });

  it('sends the phone only when the number itself changed', () => {
    expect(farmerProfileChange({ ...loaded, phone: '0803 444 5555' }, loaded)).toEqual({});
    expect(farmerProfileChange({ ...loaded, phone: '0803 444 5556' }, loaded)).toEqual({ phone: '0803 444 5556' });
  });
});
