// The landing remote as an app of its own (npm run dev / its server's index.html), without the shell.
import '@tuber/ui/global.css'; // this page is the remote's own (npm run dev): it owns the base styles
import { StrictMode, useMemo, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ShellProvider, useShell } from '@tuber/shell-contract';
import { BrowserRouter, useRoutes, type RouteObject } from '@tuber/shell-contract/router';
import { StandaloneShell } from '@tuber/ui';
import ForgotPasswordPage from './exposed/ForgotPasswordPage.js';
import LandingPage from './exposed/LandingPage.js';
import OnboardingPage from './exposed/OnboardingPage.js';
import PricePage from './exposed/PricePage.js';
import ResetPasswordPage from './exposed/ResetPasswordPage.js';
import SignupBuyerPage from './exposed/SignupBuyerPage.js';
import SignupFarmerPage from './exposed/SignupFarmerPage.js';
import { StandaloneNotice } from './StandaloneNotice.js';

const routes: RouteObject[] = [
  { path: '/', element: <LandingPage /> },
  { path: '/onboarding', element: <OnboardingPage /> },
  { path: '/signupfarmer', element: <SignupFarmerPage /> },
  { path: '/signupbuyer', element: <SignupBuyerPage /> },
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/prices/:tuber', element: <PricePage /> },
  { path: '*', element: <StandaloneNotice /> },
];

/** Alone, this app routes the price pages itself (above), so it says so as the shell does (ShellContract.serves). */
function ServesPrices({ children }: { children: ReactNode }) {
  const shell = useShell();
  const value = useMemo(() => ({ ...shell, serves: ['/prices' as const] }), [shell]);
  return <ShellProvider value={value}>{children}</ShellProvider>;
}

// The declarative router, as in the shell (docs/adr/0048).
function Pages() {
  return useRoutes(routes);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <StandaloneShell>
      <ServesPrices>
        <BrowserRouter>
          <Pages />
        </BrowserRouter>
      </ServesPrices>
    </StandaloneShell>
  </StrictMode>,
);
