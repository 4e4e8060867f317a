import { describe, expect, it } from 'vitest';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { FarmerSignup, accountAttributes, fieldProblem, passwordProblem } from '../../src/domain/signup.js';

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

describe('field messages', () => {
  it('say what a valid value looks like for e-mail, phone and tubers, whatever the rule broken', () => {
    expect(fieldProblem({ keyword: 'format', instancePath: '/email' })).toBe('Enter a valid e-mail address.');
    expect(fieldProblem({ keyword: 'maxLength', instancePath: '/email', params: { limit: 254 } })).toBe('Enter a valid e-mail address.');
    expect(fieldProblem({ keyword: 'pattern', instancePath: '/phone' })).toMatch(/^Enter a valid phone number/);
    expect(fieldProblem({ keyword: 'minLength', instancePath: '/phone' })).toMatch(/^Enter a valid phone number/);
    expect(fieldProblem({ keyword: 'const', instancePath: '/tuber/1' })).toBe(
      'Choose the tubers you grow from: yam, cassava, potato, sweet potato, tumeric, garlic, ginger (each at most once).',
    );
  });
  it('say a text field cannot be empty, or how long it may be', () => {
    expect(fieldProblem({ keyword: 'pattern', instancePath: '/firstname' })).toBe('First name cannot be empty.');
    expect(fieldProblem({ keyword: 'minLength', instancePath: '/business_name' })).toBe('Farm / business name cannot be empty.');
    expect(fieldProblem({ keyword: 'maxLength', instancePath: '/location', params: { limit: 200 } })).toBe(
      'Farm location must be at most 200 characters.',
    );
  });
  it('leave missing and unknown fields to the shared message, which names them', () => {
    expect(fieldProblem({ keyword: 'required', instancePath: '', params: { missingProperty: 'phone' } })).toBeUndefined();
    expect(fieldProblem({ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'role' } })).toBeUndefined();
    expect(fieldProblem({ keyword: 'type', instancePath: '/firstname' })).toBeUndefined();
  });
});
