// The shell is the federation host. It names no remotes at build time: their manifests come from
// /remotes.json at runtime (src/remotes/registry.ts), so moving or redeploying a remote needs no rebuild.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

// The host provides the shared singletons from its first script (eager): the page then needs no extra
// round trip for react, react-dom, the router and @tuber/ui before anything renders (docs/adr/0025).
const eager = Object.fromEntries(Object.entries(sharedSingletons).map(([name, options]) => [name, { ...options, eager: true }]));

export default createModuleFederationConfig({
  name: 'shell',
  remotes: {},
  shared: eager,
  manifest: false,
  dts: false,
});
