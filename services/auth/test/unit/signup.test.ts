import { describe, expect, it } from 'vitest';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { blocklistOf } from '../../src/domain/blocklist.js';
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import {
  BuyerSignup,
  FarmerSignup,
  accountAttributes,
  fieldProblem as fieldProblemOf,
  passwordProblem as passwordProblemOf,
  personNameProblem as personNameProblemOf,
  refusalMessage as refusalOf,
  signupPhone,
} from '../../src/domain/signup.js';

// The rules answer a problem (code, English message, params); most cases here read its message.
const fieldProblem = (...args: Parameters<typeof fieldProblemOf>) => fieldProblemOf(...args)?.message;
const passwordProblem = (...args: Parameters<typeof passwordProblemOf>) => passwordProblemOf(...args)?.message;
const personNameProblem = (...args: Parameters<typeof personNameProblemOf>) => personNameProblemOf(...args)?.message;
const refusalMessage = (reason: string) => refusalOf(reason).message;

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
const { business_name: _b, location: _l, tuber: _t, ...buyer } = farmer;

describe('sign-up rules', () => {
  it('says "Passwords do not match!" when they differ', () => {
    expect(passwordProblem('abcdef', 'abcdeg')).toBe('Passwords do not match!');
  });
  it('says "Password must be at least 8 characters long" below 8 (ASVS; the spec said 6)', () => {
    expect(passwordProblem('abc', 'abc')).toBe('Password must be at least 8 characters long');
    expect(passwordProblem('abcdefg', 'abcdefg')).toBe('Password must be at least 8 characters long');
    expect(passwordProblem('abcdefgh', 'abcdefgh')).toBeUndefined();
  });
  it('refuses the e-mail address as the password, whatever its case', () => {
    expect(passwordProblem('Ada@Farm.ng', 'Ada@Farm.ng', { email: 'ada@farm.ng' })).toBe('Password cannot be your e-mail address.');
  });
  it('refuses a password on the common-password list, whatever its case', () => {
    const list = blocklistOf(['# a comment', 'password123', '  Sunshine1 ', '']);
    expect(list.size).toBe(2);
    const rules = { isCommon: (p: string) => list.has(p) };
    expect(passwordProblem('PassWord123', 'PassWord123', rules)).toBe('This password is too common and easy to guess. Choose another one.');
    expect(passwordProblem('sunshine1', 'sunshine1', rules)).toBe('This password is too common and easy to guess. Choose another one.');
    expect(passwordProblem('yam-harvest-1', 'yam-harvest-1', rules)).toBeUndefined();
  });
  it("words Keycloak's refusals by their reason", () => {
    expect(refusalMessage('invalidPasswordBlacklistedMessage')).toBe('This password is too common and easy to guess. Choose another one.');
    expect(refusalMessage('invalidPasswordNotEmailMessage')).toBe('Password cannot be your e-mail address.');
    expect(refusalMessage('invalidPasswordNotUsernameMessage')).toBe('Password cannot be your e-mail address.');
    expect(refusalMessage('invalidPasswordMinLengthMessage')).toBe(
      'Choose another password: at least 8 characters, not your e-mail address and not a common password.',
    );
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

describe('problem codes (issue 25)', () => {
  it('name each refusal by a stable code, with the values its words use', () => {
    expect(passwordProblemOf('abcdef', 'abcdeg')?.code).toBe('PASSWORDS_DO_NOT_MATCH');
    expect(passwordProblemOf('abc', 'abc')).toMatchObject({ code: 'PASSWORD_TOO_SHORT', params: { min: 8 } });
    expect(passwordProblemOf('Ada@Farm.ng', 'Ada@Farm.ng', { email: 'ada@farm.ng' })?.code).toBe('PASSWORD_IS_EMAIL');
    expect(refusalOf('invalidPasswordBlacklistedMessage').code).toBe('PASSWORD_TOO_COMMON');
    expect(refusalOf('invalidPasswordMinLengthMessage').code).toBe('PASSWORD_REJECTED');
    expect(fieldProblemOf({ keyword: 'format', instancePath: '/email' })?.code).toBe('EMAIL_INVALID');
    expect(fieldProblemOf({ keyword: 'pattern', instancePath: '/phone' })?.code).toBe('PHONE_INVALID');
    expect(fieldProblemOf({ keyword: 'const', instancePath: '/tuber/1' })?.code).toBe('TUBERS_INVALID');
    expect(fieldProblemOf({ keyword: 'pattern', instancePath: '/firstname' })).toMatchObject({ code: 'FIELD_EMPTY', params: { field: 'firstname' } });
    expect(fieldProblemOf({ keyword: 'maxLength', instancePath: '/location', params: { limit: 200 } })).toMatchObject({
      code: 'FIELD_TOO_LONG_NAMED',
      params: { field: 'location', limit: 200 },
    });
    expect(personNameProblemOf('firstname', 'Ada&')).toMatchObject({ code: 'NAME_CHARACTER', params: { field: 'firstname', character: '&' } });
    expect(personNameProblemOf('lastname', 'Obi\u0007')).toMatchObject({ code: 'NAME_CHARACTER', params: { character: '' } });
  });
});

describe('field messages', () => {
  it('say what a valid value looks like for e-mail, phone and tubers, whatever the rule broken', () => {
    expect(fieldProblem({ keyword: 'format', instancePath: '/email' })).toBe('Enter a valid e-mail address.');
    expect(fieldProblem({ keyword: 'maxLength', instancePath: '/email', params: { limit: 254 } })).toBe('Enter a valid e-mail address.');
    expect(fieldProblem({ keyword: 'pattern', instancePath: '/phone' })).toBe(PHONE_E164_PROBLEM);
    expect(fieldProblem({ keyword: 'minLength', instancePath: '/phone' })).toBe(PHONE_E164_PROBLEM);
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

describe('phone numbers (issue 12): Nigerian, kept in E.164 digits', () => {
  it('accepts the national and international forms and keeps 234 and the 10 digits', () => {
    for (const typed of [
      '0803 123 4567',
      '08031234567',
      '+234 803 123 4567',
      '234 803-123-4567',
      '00234 (803) 123 4567',
      '+234 0803 123 4567',
    ]) {
      expect(signupPhone(typed), typed).toEqual({ phone: '2348031234567' });
    }
  });
  it('refuses another country’s number, a short one and a landline-like one with the message saying what to type', () => {
    for (const typed of ['+44 20 7946 0958', '0803 123 456', '803 123 4567', '+1 (415) 555-0100', '0003 123 4567']) {
      expect(signupPhone(typed), typed).toEqual({ problem: { code: 'PHONE_INVALID', message: PHONE_E164_PROBLEM } });
    }
  });
  it('the schema lets through what a person types (spaces, dashes, dots, brackets, a leading +) for the rule to judge', () => {
    expect(Value.Check(BuyerSignup, { ...buyer, phone: '0803.123.4567' })).toBe(true);
    expect(Value.Check(BuyerSignup, { ...buyer, phone: 'call me' })).toBe(false);
  });
});

describe('names as Keycloak takes them (issue 24: a refused name was answered "Registration successful")', () => {
  it('refuses the characters of Keycloak’s person-name rule, naming the field', () => {
    for (const bad of ['<b>Ada</b>', 'Ada & Co', 'Ada (farm)', 'Ada$', 'Ada;', 'Ada/Obi', 'Ada\\Obi', 'Ada=', 'Ada{', 'Ada§', 'Ada!']) {
      expect(personNameProblem('firstname', bad), bad).toMatch(/^First name cannot contain "/);
    }
    expect(personNameProblem('lastname', 'Obi\u0007')).toBe('Last name cannot contain a control character or line break. Use letters, spaces, hyphens, apostrophes and dots.');
    expect(personNameProblem('lastname', 'Obi\u2028Eze')).toMatch(/control character or line break/);
  });

  it('takes the names people have: accents, apostrophes, hyphens, dots, other scripts', () => {
    for (const good of ['Adébáyọ̀', "O'Neil", 'Ngozi-Ada', 'Jr.', 'Ọlálékan', 'Zainab Ibrahim', 'فاطمة']) {
      expect(personNameProblem('firstname', good), good).toBeUndefined();
    }
  });

  it('counts the 60 characters on the trimmed name, as Keycloak gets it', () => {
    expect(personNameProblem('firstname', `  ${'a'.repeat(60)}  `)).toBeUndefined();
    expect(personNameProblem('firstname', 'a'.repeat(61))).toBe('First name can be at most 60 characters.');
  });
});
