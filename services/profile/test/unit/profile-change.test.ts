import { describe, expect, it } from 'vitest';
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import {
  BUYER_FARM_FIELDS_PROBLEM,
  changedFields,
  changeProblem as changeProblemOf,
  EMAIL_PROBLEM,
  normaliseChange,
  NOTHING_TO_CHANGE,
  PHONE_PROBLEM,
} from '../../src/domain/profile-change.js';

// The refusal as a problem (code, English message, params); most cases read its message.
const changeProblem = (...args: Parameters<typeof changeProblemOf>) => changeProblemOf(...args).message;

describe('a profile change', () => {
  it('trims texts and makes inner runs of spaces one', () => {
    expect(normaliseChange({ business_name: '  Ada   Farms ', phone: ' 0803 123  4567 ' }, 'farmer')).toEqual({
      change: { business_name: 'Ada Farms', phone: '2348031234567' },
    });
  });

  it('keeps a Nigerian phone in E.164 digits, from any form a person types (issue 12)', () => {
    for (const phone of ['0803 123 4567', '+234 803 123 4567', '234-803-123-4567', '00234 803 123 4567', '(0803) 123.4567']) {
      expect(normaliseChange({ phone }, 'buyer'), phone).toEqual({ change: { phone: '2348031234567' } });
    }
  });

  it('refuses a phone that is not a Nigerian number, saying what to type', () => {
    expect(PHONE_PROBLEM).toBe(PHONE_E164_PROBLEM);
    for (const phone of ['(--) 12-34', '+44 20 7946 0958', '0803 123 456', '803 123 4567', '+1 415 555 0100']) {
      expect(normaliseChange({ phone }, 'buyer'), phone).toEqual({ problem: { code: 'PHONE_INVALID', message: PHONE_E164_PROBLEM } });
    }
  });

  it('keeps tubers in the spec order and allows none at all', () => {
    expect(normaliseChange({ tuber: ['ginger', 'yam'] }, 'farmer')).toEqual({ change: { tuber: ['yam', 'ginger'] } });
    expect(normaliseChange({ tuber: [] }, 'farmer')).toEqual({ change: { tuber: [] } });
  });

  it('refuses farm fields from a buyer', () => {
    expect(normaliseChange({ firstname: 'Bola', location: 'Ibadan' }, 'buyer')).toEqual({ problem: { code: 'BUYER_FARM_FIELDS', message: BUYER_FARM_FIELDS_PROBLEM } });
    expect(normaliseChange({ tuber: [] }, 'buyer')).toEqual({ problem: { code: 'BUYER_FARM_FIELDS', message: BUYER_FARM_FIELDS_PROBLEM } });
  });

  it('keeps only what differs from the profile (tubers as a set)', () => {
    const current = { firstname: 'Ada', phone: '0803', tuber: ['yam', 'cassava'] };
    expect(changedFields({ firstname: 'Ada', phone: '0805', tuber: ['yam', 'cassava'] }, current)).toEqual({ phone: '0805' });
    expect(changedFields({ tuber: ['yam'] }, current)).toEqual({ tuber: ['yam'] });
    expect(changedFields({ tuber: ['yam', 'cassava', 'ginger'] }, current)).toEqual({ tuber: ['yam', 'cassava', 'ginger'] });
  });

  it('words the validator’s refusals for people', () => {
    expect(changeProblem({ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'email' } })).toBe(
      EMAIL_PROBLEM,
    );
    expect(changeProblem({ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'user_type' } })).toBe(
      '"user_type" cannot be changed: a profile change may hold only firstname, lastname, phone, business_name, location, tuber, sms_alerts.',
    );
    expect(changeProblem({ keyword: 'minProperties', instancePath: '' })).toBe(NOTHING_TO_CHANGE);
    expect(changeProblemOf({ keyword: 'minProperties', instancePath: '' }).code).toBe('NOTHING_TO_CHANGE');
    expect(changeProblemOf({ keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'email' } }).code).toBe(
      'EMAIL_CHANGE_ELSEWHERE',
    );
    expect(changeProblemOf({ keyword: 'pattern', instancePath: '/business_name' })).toMatchObject({
      code: 'FIELD_EMPTY',
      params: { field: 'business_name' },
    });
    expect(changeProblem({ keyword: 'pattern', instancePath: '/phone' })).toBe(PHONE_PROBLEM);
    expect(changeProblem({ keyword: 'pattern', instancePath: '/business_name' })).toBe('Business name cannot be empty.');
    expect(changeProblem({ keyword: 'maxLength', instancePath: '/location', params: { limit: 200 } })).toBe(
      'Location must be at most 200 characters.',
    );
  });
});
