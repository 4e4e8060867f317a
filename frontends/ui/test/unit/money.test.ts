import { describe, expect, it } from 'vitest';
import { formatNaira, koboToNaira, nairaToKobo } from '../../src/format/money.js';

describe('formatNaira (prices in Nigerian naira, en-NG, NGN, exactly 2 decimals)', () => {
  it('formats whole naira with two decimals', () => {
    expect(formatNaira(150_000)).toBe('₦1,500.00');
  });
  it('keeps kobo exact', () => {
    expect(formatNaira(123_405)).toBe('₦1,234.05');
    expect(formatNaira(5)).toBe('₦0.05');
    expect(formatNaira(0)).toBe('₦0.00');
  });
  it('groups thousands the Nigerian way', () => {
    expect(formatNaira(1_234_567_890_12)).toBe('₦1,234,567,890.12');
  });
  it('stays exact at the largest safe kobo amount', () => {
    expect(formatNaira(Number.MAX_SAFE_INTEGER)).toBe('₦90,071,992,547,409.91');
  });
  it('shows negative amounts (refunds, corrections) with a minus sign', () => {
    expect(formatNaira(-250)).toBe('-₦2.50');
  });
  it('rejects fractions of a kobo', () => {
    expect(() => formatNaira(12.5)).toThrow(RangeError);
    expect(() => formatNaira(Number.NaN)).toThrow(RangeError);
  });
});

describe('nairaToKobo', () => {
  it('turns a typed price into whole kobo without float drift', () => {
    expect(nairaToKobo(19.99)).toBe(1999);
    expect(nairaToKobo(0.1 + 0.2)).toBe(30);
    expect(nairaToKobo(1500)).toBe(150_000);
  });
});

describe('koboToNaira', () => {
  it('gives the API its naira amount', () => {
    expect(koboToNaira(123_405)).toBe(1234.05);
    expect(nairaToKobo(koboToNaira(1999))).toBe(1999);
  });
});
