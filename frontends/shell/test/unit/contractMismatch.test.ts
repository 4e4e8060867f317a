// Which remote failures the shell tells apart as "this remote and this page do not fit" (reload), not "try again".
import { describe, expect, it } from 'vitest';
import { isContractMismatch, unmetRequirements } from '../../src/remotes/contractMismatch.js';

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

describe('unmetRequirements (a remote’s manifest against what this shell provides)', () => {
  const provided = new Map([
    ['@tuber/shell-contract', '1.0.0'],
    ['@tuber/shell-contract/router', '1.0.0'],
    ['react', '19.3.1'],
  ]);
  const manifest = (range: string) => ({
    shared: [
      { name: '@tuber/shell-contract', singleton: true, requiredVersion: range },
      { name: '@tuber/shell-contract/router', singleton: true, requiredVersion: '^1.0.0' },
      { name: 'react', singleton: true, requiredVersion: '^19.0.0' },
      { name: 'lodash-es', singleton: false, requiredVersion: '^9.0.0' },
    ],
  });

  it('names a strict singleton range this shell does not meet', () => {
    expect(unmetRequirements(manifest('^2.0.0'), provided)).toEqual(['@tuber/shell-contract ^2.0.0 (this page has 1.0.0)']);
  });

  it('finds nothing when the ranges are met, for non-singletons, and for what is not a manifest', () => {
    expect(unmetRequirements(manifest('^1.0.0'), provided)).toEqual([]);
    expect(unmetRequirements(manifest('1.x'), provided)).toEqual([]);
    expect(unmetRequirements({ remoteEntry: 'remoteEntry.js' }, provided)).toEqual([]);
    expect(unmetRequirements(null, provided)).toEqual([]);
  });
});
