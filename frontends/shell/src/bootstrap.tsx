import '@tuber/ui/global.css'; // first: the design tokens and base styles come before every module's CSS
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useNavigate, useRoutes } from '@tuber/shell-contract/router';
import { appSessionStore, prefetchFirstPage } from './appSession.js';
import { routes } from './routes.js';
import { ShellRoot } from './ShellRoot.js';
import './legacy/provide.js';

// Who is signed in is asked before the first render (appSession.ts): the silent check travels while React
// builds the page, instead of starting from the first render's effect.
appSessionStore()
  .start()
  .catch((error: unknown) => console.error('[shell] the sign-in check failed to start', error));
// And the first page's own first request (the feed's products) as soon as both are known.
prefetchFirstPage().catch((error: unknown) => console.warn('[shell] the first page could not prefetch', error));

function ShellRoutes() {
  return useRoutes(routes);
}

/** Inside the router, so that the toasts' links (rendered outside the routes) can navigate. */
function Shell() {
  const navigate = useNavigate();
  return (
    <ShellRoot navigate={(to) => void navigate(to)}>
      <ShellRoutes />
    </ShellRoot>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The declarative router (docs/adr/0048): ~17 KB gzipped less than the data router on every page.
// The first render is a transition: React builds the page in slices between which the browser stays
// responsive, instead of one long task on a slow phone (issue 13: total blocking time).
const root = createRoot(container);
startTransition(() =>
  root.render(
    <StrictMode>
      <BrowserRouter>
        <Shell />
      </BrowserRouter>
    </StrictMode>,
  ),
);
