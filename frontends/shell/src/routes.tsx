// The shell's URL tree. Pages live in remotes; the shell decides where they mount (and, later, who may see them).
import type { RouteObject } from 'react-router-dom';
import { Header } from './layout/Header.js';
import { RootLayout } from './layout/RootLayout.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { RouteErrorPage } from './pages/RouteErrorPage.js';
import { RemotePage } from './remotes/RemotePage.js';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Only reached when the layout itself fails; page errors are caught below, under the header.
    errorElement: (
      <>
        <Header />
        <RouteErrorPage />
      </>
    ),
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <RemotePage remote="landing" expose="LandingPage" /> },

          // Seams for the next issues (guards come with the session work):
          //   guests only → landing remote: onboarding, signupfarmer, signupbuyer, login, forgot-password
          //   open        → landing remote: reset-password
          //   signed in   → profile (redirects by user_type), dashboard/* (layout with sidebar; buyer and farmer remotes)

          // Placeholders proving the buyer and farmer manifests load; they become the dashboard's nested pages.
          { path: 'dashboard/buyer', element: <RemotePage remote="buyer" expose="BuyerHome" /> },
          { path: 'dashboard/farmer', element: <RemotePage remote="farmer" expose="FarmerHome" /> },

          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
