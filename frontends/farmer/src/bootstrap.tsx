// The farmer remote as an app of its own (npm run dev / its server's index.html), without the shell.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { StandaloneShell } from '@tuber/ui';
import FarmerHome from './exposed/FarmerHome.js';

const router = createBrowserRouter([{ path: '*', element: <FarmerHome /> }]);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <StandaloneShell>
      <RouterProvider router={router} />
    </StandaloneShell>
  </StrictMode>,
);
