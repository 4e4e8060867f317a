// The buyer remote as an app of its own (npm run dev / its server's index.html), without the shell: the
// exposed pages on the shell's own routes, in <StandaloneShell>.
import '@tuber/ui/global.css'; // this page is the remote's own (npm run dev): it owns the base styles
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, useRoutes, type RouteObject } from '@tuber/shell-contract/router';
import { StandaloneShell } from '@tuber/ui';
import BuyerProfilePage from './exposed/BuyerProfilePage.js';
import CartPage from './exposed/CartPage.js';
import FeedPage from './exposed/FeedPage.js';
import ProductDetailPage from './exposed/ProductDetailPage.js';
import RequestsPage from './exposed/RequestsPage.js';
import { DevSession } from './standalone/DevSession.js';
import { StandaloneNav } from './standalone/StandaloneNav.js';

const routes: RouteObject[] = [
  {
    element: <StandaloneNav />,
    children: [
      { path: '/dashboard/buyer', element: <FeedPage /> },
      { path: '/dashboard/buyer/:productId', element: <ProductDetailPage /> },
      { path: '/dashboard/cart', element: <CartPage /> },
      { path: '/dashboard/buyerprofile', element: <BuyerProfilePage /> },
      { path: '/dashboard/requests', element: <RequestsPage /> },
      { path: '/dashboard/farmer', element: <p style={{ padding: 16 }}>The farmer pages are in the farmer remote.</p> },
      { path: '*', element: <Navigate to="/dashboard/buyer" replace /> },
    ],
  },
];

// The declarative router, as in the shell (docs/adr/0048).
function Pages() {
  return useRoutes(routes);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <StandaloneShell>
      <DevSession>
        <BrowserRouter>
          <Pages />
        </BrowserRouter>
      </DevSession>
    </StandaloneShell>
  </StrictMode>,
);
