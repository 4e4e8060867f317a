// Buyer remote. Exposes the buyer's dashboard pages for the shell; the shell finds them through mf-manifest.json.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { legacyHostPlugin, sharedSingletons } from '@tuber/shell-contract/federation';

export default createModuleFederationConfig({
  name: 'buyer',
  filename: 'remoteEntry.js',
  exposes: {
    './FeedPage': './src/exposed/FeedPage.tsx', //                  /dashboard/buyer
    './ProductDetailPage': './src/exposed/ProductDetailPage.tsx', // /dashboard/buyer/:productId
    './CartPage': './src/exposed/CartPage.tsx', //                  /dashboard/cart
    './BuyerProfilePage': './src/exposed/BuyerProfilePage.tsx', //  /dashboard/buyerprofile
    './RequestsPage': './src/exposed/RequestsPage.tsx', //          /dashboard/requests (issue 12)
  },
  // Only the shell contract and React are shared; @tuber/ui is bundled (docs/adr/0054).
  shared: sharedSingletons,
  // Under a shell of the release before the contract split, take the contract from its @tuber/ui 0.1.
  runtimePlugins: [legacyHostPlugin],
  manifest: true,
  dts: false,
});
