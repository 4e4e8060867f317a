// The proof of work's level for a count of posts a minute (docs/adr/0068): none up to the free posts, then one
// more each time the count doubles, never past MAX_LEVEL.
import { describe, expect, it } from 'vitest';
import { MAX_LEVEL, levelOf } from '../../src/domain/form-gate.js';

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
