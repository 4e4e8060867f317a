// Which remote failures the shell tells apart as "this remote and this page do not fit" (reload), not "try again".
import { describe, expect, it } from 'vitest';
import { isContractMismatch } from '../../src/remotes/contractMismatch.js';

describe('isContractMismatch', () => {
  it("recognises the federation runtime's strict-version refusal, a missing runtime core and a missing contract", () => {
    expect(isContractMismatch(new Error('Version 2.0.0 from shell of shared singleton module @tuber/shell-contract does not satisfy the requirement of buyer which needs ^1.0.0)'))).toBe(true);
    expect(isContractMismatch(new TypeError("Cannot read properties of undefined (reading 'setGlobalFederationConstructor')"))).toBe(true);
    expect(isContractMismatch(new Error('useShell() needs a <ShellProvider> (the shell, or <StandaloneShell> when a remote runs alone)'))).toBe(true);
  });

  it('leaves network failures and timeouts to "Try again"', () => {
    expect(isContractMismatch(new TypeError('Failed to fetch'))).toBe(false);
    expect(isContractMismatch(new Error('buyer/FeedPage did not load within 10000 ms'))).toBe(false);
    expect(isContractMismatch('boom')).toBe(false);
  });
});
