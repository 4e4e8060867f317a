// The shell is the federation host. It names no remotes at build time: their manifests come from
// /remotes.json at runtime (src/remotes/registry.ts), so moving or redeploying a remote needs no rebuild.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

export default createModuleFederationConfig({
  name: 'shell',
  remotes: {},
  shared: sharedSingletons,
  manifest: false,
  dts: false,
});
