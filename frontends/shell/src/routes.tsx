// The shell's URL tree (spec §2). Pages live in remotes; the shell decides where they mount and who may see them.
import { Outlet, type RouteObject } from '@tuber/shell-contract/router';
import { DashboardLayout } from './dashboard/DashboardLayout.js';
import { BuyerOnly, FarmerOnly, GuestOnly, ModeratorOnly, RequireSignedIn } from './guards/guards.js';
import { Header } from './layout/Header.js';
import { RootLayout } from './layout/RootLayout.js';
import { RouteErrorBoundary } from './layout/RouteErrorBoundary.js';
import { LoginPage } from './pages/LoginPage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { ProfileRedirectPage } from './pages/ProfileRedirectPage.js';
import { RouteErrorPage } from './pages/RouteErrorPage.js';
import { RemotePage } from './remotes/RemotePage.js';

const landing = (expose: string) => <RemotePage remote="landing" expose={expose} />;
const buyer = (expose: string) => <RemotePage remote="buyer" expose={expose} />;
const farmer = (expose: string) => <RemotePage remote="farmer" expose={expose} />;
const moderation = (expose: string) => <RemotePage remote="moderation" expose={expose} />;

// A page that throws while rendering shows the error page in its place, under the header, until the next
// navigation (layout/RouteErrorBoundary.tsx; the declarative router has no errorElement, docs/adr/0048).
const layoutFailed = (error: unknown) => (
  <>
    <Header />
    <main>
      <RouteErrorPage error={error} />
    </main>
  </>
);
const pageFailed = (error: unknown) => <RouteErrorPage error={error} />;

export const routes: RouteObject[] = [
  {
    // Only reached when the layout itself fails; page errors are caught below, under the header.
    element: (
      <RouteErrorBoundary fallback={layoutFailed}>
        <RootLayout />
      </RouteErrorBoundary>
    ),
    children: [
      {
        element: (
          <RouteErrorBoundary fallback={pageFailed}>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: [
          { index: true, element: landing('LandingPage') },

          // Guests only: a signed-in visitor goes to /profile.
          {
            element: <GuestOnly />,
            children: [
              { path: 'onboarding', element: landing('OnboardingPage') },
              { path: 'signupfarmer', element: landing('SignupFarmerPage') },
              { path: 'signupbuyer', element: landing('SignupBuyerPage') },
              { path: 'login', element: <LoginPage /> },
              { path: 'forgot-password', element: landing('ForgotPasswordPage') },
            ],
          },

          // Open to anyone.
          { path: 'reset-password', element: landing('ResetPasswordPage') },
          // The price guide (issue 27): guests and signed-in people alike. Told to remotes as serves '/prices' (ShellRoot).
          { path: 'prices/:tuber', element: landing('PricePage') },

          // Signed in: anonymous visitors go to /login and come back here afterwards.
          {
            element: <RequireSignedIn />,
            children: [
              { path: 'profile', element: <ProfileRedirectPage /> },
              {
                path: 'dashboard',
                element: <DashboardLayout />,
                children: [
                  { index: true, element: <ProfileRedirectPage /> },
                  // The trust-and-safety team's desk (issue 26), a remote of its own, for moderators only.
                  { element: <ModeratorOnly />, children: [{ path: 'moderation', element: moderation('DeskPage') }] },
                  {
                    element: <BuyerOnly />,
                    children: [
                      { path: 'buyer', element: buyer('FeedPage') },
                      { path: 'buyer/:productId', element: buyer('ProductDetailPage') },
                      { path: 'cart', element: buyer('CartPage') },
                      { path: 'requests', element: buyer('RequestsPage') },
                      { path: 'buyerprofile', element: buyer('BuyerProfilePage') },
                    ],
                  },
                  {
                    element: <FarmerOnly />,
                    children: [
                      { path: 'farmer', element: farmer('AddProductPage') },
                      { path: 'productLists', element: farmer('ProductListPage') },
                      { path: 'productLists/:productId/edit', element: farmer('EditProductPage') },
                      { path: 'inbox', element: farmer('InboxPage') },
                      { path: 'insights', element: farmer('InsightsPage') },
                      { path: 'farmerprofile', element: farmer('FarmerProfilePage') },
                    ],
                  },
                ],
              },
            ],
          },

          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
