// Landing remote: the public pages. Exposes pages for the shell; the manifest (mf-manifest.json) is what
// the shell's remotes.json points at.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { legacyHostPlugin, sharedSingletons } from '@tuber/shell-contract/federation';

export default createModuleFederationConfig({
  name: 'landing',
  filename: 'remoteEntry.js',
  exposes: {
    './LandingPage': './src/exposed/LandingPage.tsx',
    './OnboardingPage': './src/exposed/OnboardingPage.tsx',
    './SignupFarmerPage': './src/exposed/SignupFarmerPage.tsx',
    './SignupBuyerPage': './src/exposed/SignupBuyerPage.tsx',
    './ForgotPasswordPage': './src/exposed/ForgotPasswordPage.tsx',
    './ResetPasswordPage': './src/exposed/ResetPasswordPage.tsx',
    './PricePage': './src/exposed/PricePage.tsx',
  },
  // Only the shell contract and React are shared; @tuber/ui is bundled (docs/adr/0054).
  shared: sharedSingletons,
  // Under a shell of the release before the contract split, take the contract from its @tuber/ui 0.1.
  runtimePlugins: [legacyHostPlugin],
  manifest: true,
  dts: false,
});
