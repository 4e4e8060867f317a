// The remotes' runtime plugin that lets them run under a shell of the release before the contract split.
import { describe, expect, it, vi } from 'vitest';
import legacyHost, { legacyShare } from '../../src/legacy-host.js';

const own = { from: 'buyer', loaded: undefined };
const oldShellUi = { from: 'shell', loaded: true, lib: () => ({ useShell: () => null }) };

describe('legacyShare', () => {
  it("takes a shell's loaded @tuber/ui 0.1 as the contract when no one provides @tuber/shell-contract", () => {
    const scope = { '@tuber/shell-contract': { '1.0.0': own }, '@tuber/ui': { '0.1.0': oldShellUi } };
    expect(legacyShare(scope, '@tuber/shell-contract')).toBe(oldShellUi);
  });

  it("takes the shell's @tuber/ui/router 0.1 as navigation under such a shell", () => {
    const router = { from: 'shell', loaded: true };
    const scope = { '@tuber/shell-contract/router': { '1.0.0': own }, '@tuber/ui/router': { '0.1.0': router } };
    expect(legacyShare(scope, '@tuber/shell-contract/router')).toBe(router);
  });

  it('changes nothing under a shell that provides the contract itself (today’s, which also shares the 0.1 facade)', () => {
    const scope = {
      '@tuber/shell-contract': { '1.0.0': { from: 'shell', loaded: true }, '1.0.1': own },
      '@tuber/ui': { '0.1.1': { from: 'shell', loaded: true } },
    };
    expect(legacyShare(scope, '@tuber/shell-contract')).toBeUndefined();
  });

  it('changes nothing for a remote alone on its dev page, nor for an @tuber/ui that is not 0.1, nor for other packages', () => {
    expect(legacyShare({ '@tuber/shell-contract': { '1.0.0': own } }, '@tuber/shell-contract')).toBeUndefined();
    expect(legacyShare({ '@tuber/ui': { '0.2.0': oldShellUi } }, '@tuber/shell-contract')).toBeUndefined();
    expect(legacyShare({ '@tuber/ui': { '0.1.0': { from: 'shell' } } }, '@tuber/shell-contract')).toBeUndefined(); // provided, never loaded
    expect(legacyShare({ react: { '19.0.0': own }, '@tuber/ui': { '0.1.0': oldShellUi } }, 'react')).toBeUndefined();
  });
});

describe('the runtime plugin', () => {
  it("swaps the resolver's choice for the legacy share and leaves every other resolution alone", () => {
    const plugin = legacyHost();
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const resolver = () => 'default';
    const scope = { '@tuber/shell-contract': { '1.0.0': own }, '@tuber/ui': { '0.1.0': oldShellUi } };
    const swapped = plugin.resolveShare({ shareScopeMap: { default: scope }, scope: 'default', pkgName: '@tuber/shell-contract', resolver });
    expect(swapped.resolver()).toEqual({ shared: oldShellUi, useTreesShaking: false });
    expect(info).toHaveBeenCalledOnce();
    const untouched = plugin.resolveShare({ shareScopeMap: { default: scope }, scope: 'default', pkgName: 'react', resolver });
    expect(untouched.resolver).toBe(resolver);
    info.mockRestore();
  });
});
