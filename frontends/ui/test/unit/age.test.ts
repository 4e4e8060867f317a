import { describe, expect, it } from 'vitest';
import { shortAge } from '../../src/format/age.js';

const now = new Date('2025-06-15T12:00:00Z');
const before = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;
const HR = 60 * MIN;
const DAY = 24 * HR;

describe('shortAge (min, hr, hrs, mo, yr, yrs; "ago" removable)', () => {
  it('says "just now" under a minute, and for timestamps slightly in the future', () => {
    expect(shortAge(before(30_000), { now })).toBe('just now');
    expect(shortAge(before(-5_000), { now })).toBe('just now');
  });
  it('counts minutes as "min"', () => {
    expect(shortAge(before(1 * MIN), { now })).toBe('1 min ago');
    expect(shortAge(before(59 * MIN), { now })).toBe('59 min ago');
  });
  it('counts hours as "hr" and "hrs"', () => {
    expect(shortAge(before(1 * HR), { now })).toBe('1 hr ago');
    expect(shortAge(before(5 * HR + 10 * MIN), { now })).toBe('5 hrs ago');
  });
  it('counts days below a month', () => {
    expect(shortAge(before(1 * DAY), { now })).toBe('1 day ago');
    expect(shortAge(before(20 * DAY), { now })).toBe('20 days ago');
  });
  it('counts calendar months as "mo"', () => {
    expect(shortAge('2025-05-15T12:00:00Z', { now })).toBe('1 mo ago');
    expect(shortAge('2025-05-16T12:00:00Z', { now })).toBe('30 days ago');
    expect(shortAge('2024-07-01T00:00:00Z', { now })).toBe('11 mo ago');
  });
  it('counts years as "yr" and "yrs"', () => {
    expect(shortAge('2024-06-15T12:00:00Z', { now })).toBe('1 yr ago');
    expect(shortAge('2022-01-01T00:00:00Z', { now })).toBe('3 yrs ago');
  });
  it('drops "ago" for cards', () => {
    expect(shortAge(before(3 * HR), { now, suffix: false })).toBe('3 hrs');
    expect(shortAge(before(10), { now, suffix: false })).toBe('just now');
  });
  it('accepts ISO strings, dates and epoch milliseconds', () => {
    expect(shortAge(now.getTime() - 2 * MIN, { now })).toBe('2 min ago');
  });
  it('rejects something that is not a timestamp', () => {
    expect(() => shortAge('yesterday-ish', { now })).toThrow(RangeError);
  });
});
