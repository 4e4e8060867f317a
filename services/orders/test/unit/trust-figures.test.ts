// A farmer's trust figures (issue 26) against figures worked out by hand for a small history.
import { describe, expect, it } from 'vitest';
import { publicBuyerName, ratingOf, responseFigures, type RequestHistory } from '../../src/reviews/figures.js';

const now = new Date('2026-11-29T12:00:00Z');
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(now.getTime() - ms);

/** A request sent `ago` before now, then its steps, each `after` ms after it was sent. */
function request(ago: number, ...steps: [status: string, by: 'buyer' | 'farmer', after: number][]): RequestHistory {
  const created = at(ago);
  return {
    created_at: created,
    history: [
      { status: 'sent', by: 'buyer', at: created },
      ...steps.map(([status, by, after]) => ({ status, by, at: new Date(created.getTime() + after) })),
    ],
  };
}

// By hand: 9 requests, of which 7 count (one is older than 90 days, one the buyer cancelled before any answer).
// First answers after 30, 120, 1 560, 10 and 60 minutes: median 60; within a day 4 (not the 1 560), of 6 (the
// 5 answered and the one a day has passed without an answer; the one sent 2 h ago is not yet judged).
// Accepted: 4; of them ended: 3 (two fulfilled, one cancelled after accepting), one still open.
const history = [
  request(10 * DAY, ['accepted', 'farmer', 30 * 60_000], ['fulfilled', 'farmer', 3 * DAY]),
  request(5 * DAY, ['declined', 'farmer', 2 * HOUR]),
  request(3 * DAY, ['accepted', 'farmer', 26 * HOUR], ['cancelled', 'buyer', 40 * HOUR]),
  request(2 * DAY),
  request(2 * HOUR),
  request(20 * DAY, ['cancelled', 'buyer', HOUR]),
  request(100 * DAY, ['accepted', 'farmer', 60_000], ['fulfilled', 'farmer', DAY]),
  request(7 * DAY, ['accepted', 'farmer', 10 * 60_000], ['fulfilled', 'farmer', DAY]),
  request(6 * DAY, ['accepted', 'farmer', HOUR]),
];

describe('response figures', () => {
  it('match the figures worked out by hand', () => {
    expect(responseFigures(history, now)).toEqual({
      requests: 7,
      median_answer_minutes: 60,
      answered_within_day: 4,
      answered_of: 6,
      fulfilled: 2,
      fulfilled_of: 3,
    });
  });

  it('are not given below 5 counted requests', () => {
    expect(responseFigures(history.slice(0, 4), now)).toBeUndefined();
    // The cancelled-before-answer and the old one do not count towards the 5.
    expect(responseFigures([...history.slice(0, 4), history[5]!, history[6]!], now)).toBeUndefined();
  });

  it('give no median while nothing is answered', () => {
    const figures = responseFigures([request(HOUR), request(2 * HOUR), request(3 * HOUR), request(4 * HOUR), request(5 * HOUR)], now);
    expect(figures).toEqual({ requests: 5, answered_within_day: 0, answered_of: 0, fulfilled: 0, fulfilled_of: 0 });
  });
});

describe('rating', () => {
  it.each([
    [0, 0, { count: 0 }],
    [2, 9, { count: 2 }],
    [3, 13, { count: 3, mean: 4.3 }],
    [4, 18, { count: 4, mean: 4.5 }],
    [7, 35, { count: 7, mean: 5 }],
  ])('%i reviews with %i stars in all: %j', (count, sum, expected) => {
    expect(ratingOf(count, sum)).toEqual(expected);
  });
});

describe('the buyer as a review shows them', () => {
  it.each([
    ['Ada Okafor', 'Ada O.'],
    ['Ada', 'Ada'],
    ['  Ọlá   Adé  ìbídùn ', 'Ọlá Ì.'],
    ['', ''],
  ])('%j → %j', (full, shown) => {
    expect(publicBuyerName(full)).toBe(shown);
  });
});
