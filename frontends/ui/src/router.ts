// The router as host and remotes share it (a federation singleton, see federation.ts): only the parts of
// react-router the front ends use. Sharing react-router itself would ship all of it (~62 KB gzipped:
// framework mode, server rendering, RSC) because a shared module cannot be tree-shaken: any remote might
// import any export. Through this list webpack keeps only what is named here (docs/adr/0025).
// Need another router API in a remote? Add it here, then rebuild the shell and that remote.
export {
  createBrowserRouter,
  isRouteErrorResponse,
  Link,
  Navigate,
  NavLink,
  Outlet,
  ScrollRestoration,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useRouteError,
} from 'react-router';
// The DOM RouterProvider (it renders navigations with react-dom's flushSync), as react-router-dom exports it.
export { RouterProvider } from 'react-router/dom';
export type { RouteObject } from 'react-router';
