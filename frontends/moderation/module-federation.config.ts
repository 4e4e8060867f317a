// Moderation remote (issue 26, docs/adr/0071): the trust-and-safety team's desk. The shell finds it through
// mf-manifest.json and mounts it on /dashboard/moderation, for moderators only.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { legacyHostPlugin, sharedSingletons } from '@tuber/shell-contract/federation';

export default createModuleFederationConfig({
  name: 'moderation',
  filename: 'remoteEntry.js',
  exposes: {
    './DeskPage': './src/exposed/DeskPage.tsx',
  },
  // Only the shell contract and React are shared; @tuber/ui is bundled (docs/adr/0054).
  shared: sharedSingletons,
  runtimePlugins: [legacyHostPlugin],
  manifest: true,
  dts: false,
});
