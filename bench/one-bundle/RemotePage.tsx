// The baseline's stand-in for the shell's remote slot (frontends/shell/src/remotes/RemotePage.tsx): every
// page a remote exposes is imported directly, so the whole app is one webpack build, one bundle, without
// Module Federation. Only the benchmark builds it (docs/adr/0025).
import type { ComponentType } from 'react';
import ForgotPasswordPage from '../../frontends/landing/src/exposed/ForgotPasswordPage.js';
import LandingPage from '../../frontends/landing/src/exposed/LandingPage.js';
import OnboardingPage from '../../frontends/landing/src/exposed/OnboardingPage.js';
import ResetPasswordPage from '../../frontends/landing/src/exposed/ResetPasswordPage.js';
import SignupBuyerPage from '../../frontends/landing/src/exposed/SignupBuyerPage.js';
import SignupFarmerPage from '../../frontends/landing/src/exposed/SignupFarmerPage.js';
import BuyerProfilePage from '../../frontends/buyer/src/exposed/BuyerProfilePage.js';
import CartPage from '../../frontends/buyer/src/exposed/CartPage.js';
import FeedPage, * as feedModule from '../../frontends/buyer/src/exposed/FeedPage.js';
import ProductDetailPage from '../../frontends/buyer/src/exposed/ProductDetailPage.js';
import AddProductPage from '../../frontends/farmer/src/exposed/AddProductPage.js';
import FarmerProfilePage from '../../frontends/farmer/src/exposed/FarmerProfilePage.js';
import ProductListPage from '../../frontends/farmer/src/exposed/ProductListPage.js';

const pages: Record<string, Record<string, ComponentType>> = {
  landing: { LandingPage, OnboardingPage, SignupFarmerPage, SignupBuyerPage, ForgotPasswordPage, ResetPasswordPage },
  buyer: { FeedPage, ProductDetailPage, CartPage, BuyerProfilePage },
  farmer: { AddProductPage, ProductListPage, FarmerProfilePage },
};

/** The page modules as the federation runtime would hand them over (the feed's `prefetch` included). */
export function bundledPage(remote: string, expose: string): { default: ComponentType; prefetch?: typeof feedModule.prefetch } {
  const Page = pages[remote]?.[expose];
  if (!Page) throw new Error(`the one-bundle baseline has no page ${remote}/${expose}`);
  return remote === 'buyer' && expose === 'FeedPage' ? feedModule : { default: Page };
}

export function RemotePage({ remote, expose }: { remote: string; expose: string }) {
  const Page = pages[remote]?.[expose];
  if (!Page) throw new Error(`the one-bundle baseline has no page ${remote}/${expose}`);
  return <Page />;
}
