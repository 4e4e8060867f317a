// Buyer remote. Exposes pages for the shell; the shell finds them through mf-manifest.json.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

export default createModuleFederationConfig({
  name: 'buyer',
  filename: 'remoteEntry.js',
  exposes: {
    './BuyerHome': './src/exposed/BuyerHome.tsx',
  },
  shared: sharedSingletons,
  manifest: true,
  dts: false,
});
