// A farmer's figures in words (issue 26): the speed of the first answer rounded up to what a buyer reads at a
// glance, the lines in the order a buyer asks, and "new" below 3 reviews.
import { describe, expect, it } from 'vitest';
import { tr } from '../../src/i18n/t.js';
import { answerSpeedText, hasMean, responseLines } from '../../src/trust/trustWords.js';

describe('answerSpeedText', () => {
  it.each([
    [undefined, undefined],
    [5, 'Usually answers within an hour'],
    [60, 'Usually answers within an hour'],
    [61, 'Usually answers within 2 hours'],
    [23 * 60, 'Usually answers within 23 hours'],
    [24 * 60, 'Usually answers within 1 day'],
    [49 * 60, 'Usually answers within 3 days'],
  ])('%s minutes: %s', (minutes, words) => {
    expect(answerSpeedText(minutes, tr)).toBe(words);
  });
});

describe('responseLines', () => {
  it('gives speed, then answers within a day, then fulfilment', () => {
    expect(
      responseLines(
        {
          farmer_id: 'f',
          rating: { count: 0 },
          response: { requests: 7, median_answer_minutes: 60, answered_within_day: 4, answered_of: 6, fulfilled: 2, fulfilled_of: 3 },
        },
        tr,
      ),
    ).toEqual(['Usually answers within an hour', 'Answered 4 of 6 requests within a day', 'Fulfilled 2 of 3 accepted requests']);
  });

  it('leaves out what cannot be said yet, and everything below 5 requests', () => {
    expect(
      responseLines(
        { farmer_id: 'f', rating: { count: 0 }, response: { requests: 5, answered_within_day: 0, answered_of: 0, fulfilled: 0, fulfilled_of: 0 } },
        tr,
      ),
    ).toEqual([]);
    expect(responseLines({ farmer_id: 'f', rating: { count: 0 } }, tr)).toEqual([]);
  });
});

describe('hasMean', () => {
  it('is false below 3 reviews and without a rating', () => {
    expect(hasMean(undefined)).toBe(false);
    expect(hasMean({ count: 2 })).toBe(false);
    expect(hasMean({ count: 3, mean: 4.3 })).toBe(true);
  });
});
