// Farmer remote. Exposes pages for the shell; the shell finds them through mf-manifest.json and mounts them
// on /dashboard/farmer, /dashboard/productLists, /dashboard/productLists/:productId/edit and /dashboard/farmerprofile.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

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
  shared: sharedSingletons,
  manifest: true,
  dts: false,
});
