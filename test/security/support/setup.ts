// Runs in every security test file: counts the requests the file sends and writes its counts.
import { afterAll, expect } from 'vitest';
import { counts, writeCounts } from './tally.js';

const realFetch = globalThis.fetch;
globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  counts.requests += 1;
  return realFetch(input, init);
};

afterAll(() => {
  writeCounts(expect.getState().testPath ?? 'unknown.test.ts');
});
