import { describe, expect, it } from 'vitest';
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import { buyerProfileChange, checkBuyerProfile, valuesOf } from '../../src/profile/profileForm.js';

const loaded = valuesOf({ firstname: 'Ada', lastname: 'Obi', phone: '2348031234567' } as never);

describe('the buyer profile form and Nigerian phone numbers', () => {
  it('shows a stored E.164 number the way people write it', () => expect(loaded.phone).toBe('+234 803 123 4567'));

  it('refuses a number that is not Nigerian with the services’ message', () => {
    expect(checkBuyerProfile({ ...loaded, phone: '1234567' }).phone).toBe(PHONE_E164_PROBLEM);
    expect(checkBuyerProfile({ ...loaded, phone: '' }).phone).toBe('Phone number cannot be empty.');
    expect(checkBuyerProfile({ ...loaded, phone: '08031234567' }).phone).toBeUndefined();
  });

  it('sends the phone only when the number itself changed', () => {
    expect(buyerProfileChange({ ...loaded, phone: '0803 123 4567' }, loaded)).toEqual({});
    expect(buyerProfileChange({ ...loaded, phone: '0803 123 0000' }, loaded)).toEqual({ phone: '0803 123 0000' });
  });
});
