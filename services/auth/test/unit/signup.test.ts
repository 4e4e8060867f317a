import { describe, expect, it } from 'vitest';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { FarmerSignup, accountAttributes, passwordProblem } from '../../src/domain/signup.js';

// Fastify checks formats with ajv-formats; a plain stand-in is enough to test the other rules here.
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (value) => /^[^@\s]+@[^@\s]+$/.test(value));

const farmer = {
  firstname: 'Ada',
  lastname: 'Okafor',
  email: 'ada@farm.ng',
  phone: '+234 803 000 0000',
  password: 'yam-harvest',
  confirm_password: 'yam-harvest',
  business_name: 'Ada Farms',
  location: 'Ibadan',
  tuber: ['yam', 'sweet potato'],
};

describe('sign-up rules', () => {
  it('says "Passwords do not match!" when they differ', () => {
    expect(passwordProblem('abcdef', 'abcdeg')).toBe('Passwords do not match!');
  });
  it('says "Password must be at least 6 characters long" below 6', () => {
    expect(passwordProblem('abc', 'abc')).toBe('Password must be at least 6 characters long');
    expect(passwordProblem('abcdef', 'abcdef')).toBeUndefined();
  });
  it('requires every farmer field and only the seven tubers', () => {
    expect(Value.Check(FarmerSignup, farmer)).toBe(true);
    const { business_name: _omitted, ...withoutBusiness } = farmer;
    expect(Value.Check(FarmerSignup, withoutBusiness)).toBe(false);
    expect(Value.Check(FarmerSignup, { ...farmer, location: '   ' })).toBe(false);
    expect(Value.Check(FarmerSignup, { ...farmer, tuber: ['banana'] })).toBe(false);
    expect(Value.Check(FarmerSignup, { ...farmer, tuber: [] })).toBe(true);
  });
  it('stores farmer attributes with pending_profile true', () => {
    expect(accountAttributes(farmer, 'farmer')).toEqual({
      phone: ['+234 803 000 0000'],
      user_type: ['farmer'],
      pending_profile: ['true'],
      business_name: ['Ada Farms'],
      location: ['Ibadan'],
      tuber: ['yam', 'sweet potato'],
    });
  });
});
