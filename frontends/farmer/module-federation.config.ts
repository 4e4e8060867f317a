// Farmer remote. Exposes pages for the shell; the shell finds them through mf-manifest.json.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

export default createModuleFederationConfig({
  name: 'farmer',
  filename: 'remoteEntry.js',
  exposes: {
    './FarmerHome': './src/exposed/FarmerHome.tsx',
  },
  shared: sharedSingletons,
  manifest: true,
  dts: false,
});
