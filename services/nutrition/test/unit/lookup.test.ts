import { describe, expect, it } from 'vitest';
import { TUBER_TYPES } from '@tuber/contracts';
import { embeddedLookup, parseTuberType } from '../../src/domain/lookup.js';

describe('tuber type lookup', () => {
  it('knows every one of the seven spec tubers, with a named USDA source', () => {
    for (const tuber of TUBER_TYPES) {
      const answer = embeddedLookup(tuber);
      expect(answer.tuber_type).toBe(tuber);
      expect(answer.nutrition.calories).toBeGreaterThan(0);
      expect(answer.source.reference).toMatch(/NDB \d{5}, per 100 g/);
    }
  });

  it('reads "Sweet-Potato" and "sweet_potato" as sweet potato', () => {
    expect(parseTuberType('Sweet-Potato')).toBe('sweet potato');
    expect(parseTuberType('sweet_potato')).toBe('sweet potato');
    expect(parseTuberType(' YAM ')).toBe('yam');
  });

  it('does not invent data for an unknown type', () => {
    expect(parseTuberType('banana')).toBeUndefined();
    expect(parseTuberType('')).toBeUndefined();
  });
});
