// The shell is the federation host. It names no remotes at build time: their manifests come from
// /remotes.json at runtime (src/remotes/registry.ts), so moving or redeploying a remote needs no rebuild.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/shell-contract/federation';

// The host provides the shared singletons from its first script (eager): the page then needs no extra
// round trip for react, react-dom, the router and the shell contract before anything renders (docs/adr/0025).
const eager = Object.fromEntries(Object.entries(sharedSingletons).map(([name, options]) => [name, { ...options, eager: true }]));

/**
 * The expand step of the contract split (docs/adr/0054): remotes of the release before it ask the shell for
 * '@tuber/ui' 0.1 and '@tuber/ui/router' 0.1 as singletons. The shell keeps providing both, for one release:
 * the first as src/legacy/ui-0.1.ts (that version's whole API, over today's library and contract), the
 * second as the router it uses itself (src/legacy/ui-router-0.1.ts). Both are package requests (the shell's
 * own exports), provided because src/legacy/provide.ts imports them: a path request would be provided in
 * every child compilation too (the page template's, the service worker's), which cannot build CSS. Removed
 * at the contract step, once releases.json names no remote of that release.
 */
const legacyShares = {
  'tuber-legacy/ui-0.1': {
    import: '@tuber/shell/legacy/ui-0.1',
    shareKey: '@tuber/ui',
    version: '0.1.1',
    singleton: true,
    eager: true,
    requiredVersion: false as const,
  },
  'tuber-legacy/ui-router-0.1': {
    import: '@tuber/shell/legacy/ui-router-0.1',
    shareKey: '@tuber/ui/router',
    version: '0.1.1',
    singleton: true,
    eager: true,
    requiredVersion: false as const,
  },
};

export default createModuleFederationConfig({
  name: 'shell',
  remotes: {},
  shared: { ...eager, ...legacyShares },
  manifest: false,
  dts: false,
});
