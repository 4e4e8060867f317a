import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from '@tuber/ui/router';
import { routes } from './routes.js';
import { ShellRoot } from './ShellRoot.js';

const router = createBrowserRouter(routes);
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <ShellRoot navigate={(to) => void router.navigate(to)}>
      <RouterProvider router={router} />
    </ShellRoot>
  </StrictMode>,
);
