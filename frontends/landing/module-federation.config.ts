// Landing remote: the public pages. Exposes pages for the shell; the manifest (mf-manifest.json) is what
// the shell's remotes.json points at.
import { createModuleFederationConfig } from '@module-federation/enhanced';
import { sharedSingletons } from '@tuber/ui/federation';

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
  },
  shared: sharedSingletons,
  manifest: true,
  dts: false,
});
