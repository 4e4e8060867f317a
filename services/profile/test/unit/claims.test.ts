import { describe, expect, it } from 'vitest';
import { draftFromClaims } from '../../src/domain/claims.js';

const farmerClaims = {
  email: 'Ada@Farm.ng',
  given_name: 'Ada',
  family_name: 'Okafor',
  phone: '+2348030000000',
  user_type: 'farmer',
  business_name: 'Ada Farms',
  location: 'Ibadan',
  tuber: ['yam', 'cassava', 'plantain'],
};

describe('profile from token claims', () => {
  it('builds a farmer with only the known tubers', () => {
    expect(draftFromClaims('u1', farmerClaims)).toEqual({
      user_id: 'u1',
      user_type: 'farmer',
      email: 'ada@farm.ng',
      firstname: 'Ada',
      lastname: 'Okafor',
      phone: '+2348030000000',
      business_name: 'Ada Farms',
      location: 'Ibadan',
      tuber: ['yam', 'cassava'],
    });
  });

  it('builds a buyer without farm fields', () => {
    const { business_name: _b, location: _l, tuber: _t, ...rest } = farmerClaims;
    expect(draftFromClaims('u2', { ...rest, user_type: 'buyer' })).toMatchObject({ user_type: 'buyer', firstname: 'Ada' });
  });

  it('fails with "User type not found in metadata" when user_type is missing', () => {
    const { user_type: _u, ...rest } = farmerClaims;
    expect(draftFromClaims('u3', rest)).toEqual({ problem: { code: 'USER_TYPE_MISSING', message: 'User type not found in metadata' } });
  });

  it('names what a farmer account lacks', () => {
    expect(draftFromClaims('u4', { ...farmerClaims, location: ' ', phone: undefined })).toEqual({
      problem: { code: 'ACCOUNT_INCOMPLETE', message: 'Your account is missing: phone, location.', params: { fields: 'phone, location' } },
    });
  });
});
