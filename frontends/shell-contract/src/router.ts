// The router as host and remotes share it (a federation singleton, see federation.ts): only the parts of
// react-router the front ends use. Sharing react-router itself would ship all of it (~62 KB gzipped:
// framework mode, server rendering, RSC) because a shared module cannot be tree-shaken: any remote might
// import any export. Through this list webpack keeps only what is named here (docs/adr/0025).
// Only the declarative router (BrowserRouter + useRoutes): the data router (createBrowserRouter,
// RouterProvider) brings loaders, actions, fetchers and its own scroll restoration, which no front end uses,
// and costs about 17 KB gzipped more on every page (docs/adr/0048). The shell makes up for the two things it
// used from it: a route error boundary and scroll restoration (frontends/shell/src/layout/).
// Need another router API in a remote? Add it here, then rebuild the shell before that remote (removing one
// is the other way round: remotes first; docs/adr/0048).
export {
  BrowserRouter,
  Link,
  Navigate,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useRoutes,
} from 'react-router';
export type { RouteObject } from 'react-router';
