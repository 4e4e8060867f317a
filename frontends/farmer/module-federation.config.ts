// Farmer remote. Exposes pages for the shell; the shell finds them through mf-manifest.json and mounts them
// on /dashboard/farmer, /dashboard/productLists, /dashboard/productLists/:productId/edit and /dashboard/farmerprofile.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { legacyHostPlugin, sharedSingletons } from '@tuber/shell-contract/federation';

export default createModuleFederationConfig({
  name: 'farmer',
  filename: 'remoteEntry.js',
  exposes: {
    './AddProductPage': './src/exposed/AddProductPage.tsx',
    './ProductListPage': './src/exposed/ProductListPage.tsx',
    './EditProductPage': './src/exposed/EditProductPage.tsx',
    './FarmerProfilePage': './src/exposed/FarmerProfilePage.tsx',
    './InboxPage': './src/exposed/InboxPage.tsx', // /dashboard/inbox (issue 12)
    './InsightsPage': './src/exposed/InsightsPage.tsx', // /dashboard/insights (issue 12)
  },
  // Only the shell contract and React are shared; @tuber/ui is bundled (docs/adr/0054).
  shared: sharedSingletons,
  // Under a shell of the release before the contract split, take the contract from its @tuber/ui 0.1.
  runtimePlugins: [legacyHostPlugin],
  manifest: true,
  dts: false,
});
