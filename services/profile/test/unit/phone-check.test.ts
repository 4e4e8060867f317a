// The rules of verifying a phone by SMS (issue 26, docs/adr/0070), without servers: the verdicts on a code sent
// back, worked out by hand, and every language's code message kept to one SMS part.
import { describe, expect, it } from 'vitest';
import { LOCALES, PHONE_CODE_TRIES } from '@tuber/contracts';
import { smsParts } from '@tuber/kit';
import { alertsTarget, checkFor, codeHash, codeSms, isVerified, judgeCode, newCode, presentProfile, resendWait } from '../../src/domain/phone-check.js';

const at = new Date('2026-11-29T10:00:00Z');
const base = { user_id: 'u1', phone: '2348031234567' };

describe('a code sent back', () => {
  const check = checkFor('u1', '2348031234567', '042137', at);
  const doc = { ...base, phone_check: check };

  it('is stored as a hash bound to the account and the number', () => {
    expect(check.code_hash).toBe(codeHash('u1', '2348031234567', '042137'));
    expect(check.code_hash).not.toBe(codeHash('u2', '2348031234567', '042137'));
    expect(check.code_hash).not.toBe(codeHash('u1', '2348031234568', '042137'));
    expect(check.expires_at.toISOString()).toBe('2026-11-29T10:10:00.000Z');
    expect(check.tries_left).toBe(PHONE_CODE_TRIES);
  });

  it('verifies when right and in time', () => {
    expect(judgeCode(doc, '042137', new Date('2026-11-29T10:09:59Z'))).toEqual({ kind: 'verified' });
  });

  it('costs a try when wrong, and is spent with none left', () => {
    expect(judgeCode(doc, '042138', at)).toEqual({ kind: 'wrong', left: 4 });
    expect(judgeCode({ ...doc, phone_check: { ...check, tries_left: 1 } }, '000000', at)).toEqual({ kind: 'wrong', left: 0 });
    expect(judgeCode({ ...doc, phone_check: { ...check, tries_left: 0 } }, '042137', at)).toEqual({ kind: 'spent' });
  });

  it('is gone at 10 minutes, and for another number', () => {
    expect(judgeCode(doc, '042137', new Date('2026-11-29T10:10:00Z'))).toEqual({ kind: 'none' });
    expect(judgeCode({ ...base }, '042137', at)).toEqual({ kind: 'none' });
    expect(judgeCode({ ...doc, phone: '2348031234568' }, '042137', at)).toEqual({ kind: 'phone-changed' });
    expect(judgeCode({ ...doc, verified_phone: base.phone }, '042137', at)).toEqual({ kind: 'already' });
  });

  it('waits a minute before the next', () => {
    expect(resendWait(check, new Date('2026-11-29T10:00:00.500Z'))).toBe(60);
    expect(resendWait(check, new Date('2026-11-29T10:00:59.100Z'))).toBe(1);
    expect(resendWait(check, new Date('2026-11-29T10:01:00Z'))).toBe(0);
    expect(resendWait(undefined, at)).toBe(0);
  });
});

describe('codes and what shows', () => {
  it('draws six digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, newCode);
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it('is verified only for the number that was checked', () => {
    expect(isVerified({ phone: 'a', verified_phone: 'a' })).toBe(true);
    expect(isVerified({ phone: 'b', verified_phone: 'a' })).toBe(false);
    expect(isVerified({ phone: 'a' })).toBe(false);
    expect(alertsTarget({ ...base, verified_phone: base.phone, sms_alerts: true })).toBe(base.phone);
    expect(alertsTarget({ ...base, verified_phone: base.phone, sms_alerts: false })).toBeNull();
    expect(alertsTarget({ ...base, verified_phone: '2348030000000', sms_alerts: true })).toBeNull();
  });

  it('answers the flag, never the code or its hash', () => {
    const shown = presentProfile({ ...base, user_type: 'farmer' as const, verified_phone: base.phone, phone_check: checkFor('u1', base.phone, '1', at) });
    expect(shown).toMatchObject({ phone_verified: true, sms_alerts: false });
    expect(shown).not.toHaveProperty('phone_check');
    expect(shown).not.toHaveProperty('verified_phone');
    expect(presentProfile({ ...base, user_type: 'buyer' as const })).not.toHaveProperty('sms_alerts');
  });

  it.each(LOCALES)('says the code in %s in one SMS part', (locale) => {
    const text = codeSms(locale, '042137');
    expect(text).toContain('042137');
    expect(text).toContain('10');
    expect(smsParts(text).parts).toBe(1);
  });

  it('counts parts as the networks do', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'gsm', parts: 1 });
    expect(smsParts('a'.repeat(161))).toEqual({ encoding: 'gsm', parts: 2 });
    expect(smsParts('ọ'.repeat(70))).toEqual({ encoding: 'ucs2', parts: 1 });
    expect(smsParts('ọ'.repeat(71))).toEqual({ encoding: 'ucs2', parts: 2 });
  });
});
