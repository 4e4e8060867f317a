// The landing remote as an app of its own (npm run dev / its server's index.html), without the shell.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { StandaloneShell } from '@tuber/ui';
import LandingPage from './exposed/LandingPage.js';
import { StandaloneNotice } from './StandaloneNotice.js';

const router = createBrowserRouter([
  { path: '/', element: <LandingPage /> },
  { path: '*', element: <StandaloneNotice /> },
]);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <StandaloneShell>
      <RouterProvider router={router} />
    </StandaloneShell>
  </StrictMode>,
);
