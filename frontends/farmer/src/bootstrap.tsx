// The farmer remote as an app of its own (npm run dev / its server's index.html), without the shell: the
// exposed pages on the shell's own routes, in <StandaloneShell> with a pasted-token dev session.
import '@tuber/ui/global.css'; // this page is the remote's own (npm run dev): it owns the base styles
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, useRoutes, type RouteObject } from '@tuber/shell-contract/router';
import { StandaloneShell } from '@tuber/ui';
import AddProductPage from './exposed/AddProductPage.js';
import EditProductPage from './exposed/EditProductPage.js';
import FarmerProfilePage from './exposed/FarmerProfilePage.js';
import InboxPage from './exposed/InboxPage.js';
import ProductListPage from './exposed/ProductListPage.js';
import {
  ADD_PRODUCT_PATH,
  BUYER_HOME_PATH,
  EDIT_PRODUCT_ROUTE,
  FARMER_PROFILE_PATH,
  INBOX_PATH,
  PRODUCT_LIST_PATH,
} from './shared/paths.js';
import { DevSession } from './standalone/DevSession.js';
import { StandaloneNav } from './standalone/StandaloneNav.js';

const routes: RouteObject[] = [
  {
    element: <StandaloneNav />,
    children: [
      { path: ADD_PRODUCT_PATH, element: <AddProductPage /> },
      { path: PRODUCT_LIST_PATH, element: <ProductListPage /> },
      { path: EDIT_PRODUCT_ROUTE, element: <EditProductPage /> },
      { path: FARMER_PROFILE_PATH, element: <FarmerProfilePage /> },
      { path: INBOX_PATH, element: <InboxPage /> },
      { path: BUYER_HOME_PATH, element: <p>The buyer pages are in the buyer remote.</p> },
      { path: '*', element: <Navigate to={ADD_PRODUCT_PATH} replace /> },
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
