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
