import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from '@tuber/ui/router';
import { appSessionStore } from './appSession.js';
import { routes } from './routes.js';
import { ShellRoot } from './ShellRoot.js';

// Who is signed in is asked before the first render (appSession.ts): the silent check travels while React
// builds the page, instead of starting from the first render's effect.
appSessionStore()
  .start()
  .catch((error: unknown) => console.error('[shell] the sign-in check failed to start', error));

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
