import { describe, expect, it } from 'vitest';
import { firstWords } from '../../src/format/words.js';

const twentyFive = Array.from({ length: 25 }, (_, i) => `w${i + 1}`).join(' ');

describe('firstWords (description previews)', () => {
  it('cuts a feed description to 20 words and says it was cut', () => {
    const cut = firstWords(twentyFive, 20);
    expect(cut.text.split(' ')).toHaveLength(20);
    expect(cut.text.endsWith('w20')).toBe(true);
    expect(cut.isCut).toBe(true);
  });
  it('leaves a short description whole', () => {
    expect(firstWords('Fresh white yam from Oyo', 10)).toEqual({ text: 'Fresh white yam from Oyo', isCut: false });
  });
  it('is not cut when the text has exactly N words', () => {
    expect(firstWords('one two three', 3)).toEqual({ text: 'one two three', isCut: false });
  });
  it('treats runs of spaces and new lines as one word break', () => {
    expect(firstWords('  big \n\n tubers\t here  ', 2)).toEqual({ text: 'big tubers', isCut: true });
  });
  it('handles an empty description', () => {
    expect(firstWords('   ', 10)).toEqual({ text: '', isCut: false });
  });
  it('rejects a negative count', () => {
    expect(() => firstWords('a b', -1)).toThrow(RangeError);
  });
});
