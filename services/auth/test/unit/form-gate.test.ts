// The proof of work's level for a count of posts a minute (docs/adr/0068): none up to the free posts, then one
// more each time the count doubles, never past MAX_LEVEL.
import { describe, expect, it } from 'vitest';
import { MAX_LEVEL, levelOf, postsInLastMinute } from '../../src/domain/form-gate.js';

describe('levelOf', () => {
  it.each([
    [1, 0],
    [10, 0],
    [11, 1],
    [19, 1],
    [20, 2],
    [39, 2],
    [40, 3],
    [79, 3],
    [80, 3],
    [600, MAX_LEVEL],
    [1_000_000, MAX_LEVEL],
  ])('a count of %i with 10 free asks for level %i', (count, level) => {
    expect(levelOf(count, 10)).toBe(level);
  });
});

describe('postsInLastMinute', () => {
  it.each([
    // this minute's posts, the previous minute's, ms into this minute, the estimate
    [1, 0, 0, 1],
    [1, 400, 0, 401],
    [1, 400, 15_000, 301],
    [5, 400, 30_000, 205],
    [5, 400, 59_999, 5.00666],
    [5, 400, 60_000, 5],
  ])('%i now and %i before, %i ms into the minute, count as %d', (current, previous, ms, expected) => {
    expect(postsInLastMinute(current, previous, ms)).toBeCloseTo(expected, 4);
  });

  it("never counts fewer than this minute's own posts", () => {
    expect(postsInLastMinute(7, 1_000, 61_000)).toBe(7);
  });
});
