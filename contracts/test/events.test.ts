import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { ALL_EVENTS, EVENT_SUBJECTS, FarmerProfileChanged, TUBER_TYPES } from '../src/index.js';

describe('event contracts', () => {
  it('gives every event a unique, versioned subject inside the stream', () => {
    const subjects = ALL_EVENTS.map((e) => e.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    for (const event of ALL_EVENTS) {
      expect(event.subject).toMatch(/^tuber\.[a-z.]+\.v\d+$/);
      expect(event.subject.endsWith(`.v${event.version}`)).toBe(true);
      expect(event.subject.startsWith(EVENT_SUBJECTS.replace('>', ''))).toBe(true);
    }
  });

  it('accepts only the spec tubers in a farmer change', () => {
    const good = { farmer_id: 'f1', business_name: 'Ade Farms', location: 'Ibadan', tuber: ['yam', 'sweet potato'], revision: 1 };
    expect(Value.Check(FarmerProfileChanged.payload, good)).toBe(true);
    expect(Value.Check(FarmerProfileChanged.payload, { ...good, tuber: ['banana'] })).toBe(false);
    expect(TUBER_TYPES).toHaveLength(7);
  });
});

describe('languages (issue 13)', () => {
  it('AccountEmailChanged takes an optional locale; events without one stay valid', async () => {
    const { AccountEmailChanged } = await import('../src/index.js');
    const { FormatRegistry } = await import('@sinclair/typebox');
    if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));
    const base = { user_id: 'u1', email: 'a@b.ng', email_verified: true, changed_at: new Date().toISOString() };
    expect(Value.Check(AccountEmailChanged.payload, base)).toBe(true);
    expect(Value.Check(AccountEmailChanged.payload, { ...base, locale: 'yo' })).toBe(true);
  });

  it('localeOf reads our five languages from claims and attributes, nothing else', async () => {
    const { localeOf, LOCALES } = await import('../src/index.js');
    expect(LOCALES).toEqual(['en', 'pcm', 'yo', 'ha', 'ig']);
    expect(localeOf('yo')).toBe('yo');
    expect(localeOf(['ha'])).toBe('ha');
    expect(localeOf('pcm-NG')).toBe('pcm');
    expect(localeOf('IG')).toBe('ig');
    expect(localeOf('fr')).toBeUndefined();
    expect(localeOf(undefined)).toBeUndefined();
    expect(localeOf(42)).toBeUndefined();
  });
});
