// Buyer remote. Exposes the buyer's dashboard pages for the shell; the shell finds them through mf-manifest.json.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

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
  shared: sharedSingletons,
  manifest: true,
  dts: false,
});
