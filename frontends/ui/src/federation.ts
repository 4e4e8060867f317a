// The one declaration of what host and remotes share at runtime. Singletons: there must be exactly one
// React (hooks), one router (its contexts) and one @tuber/ui (the shell-contract context) on the page.
// Imported by every module-federation.config.ts; keep it free of browser code.

const singleton = (requiredVersion: string) => ({ singleton: true, requiredVersion });

export const sharedSingletons = {
  react: singleton('^19.0.0'),
  'react/jsx-runtime': singleton('^19.0.0'),
  'react-dom': singleton('^19.0.0'),
  'react-dom/client': singleton('^19.0.0'),
  // The router through @tuber/ui/router: only the parts the front ends use (see router.ts).
  '@tuber/ui/router': singleton('^0.1.0'),
  '@tuber/ui': singleton('^0.1.0'),
};

/** Names of the remotes the shell knows about; the URLs come from remotes.json at runtime. */
export const remoteNames = ['landing', 'buyer', 'farmer'] as const;
export type RemoteName = (typeof remoteNames)[number];
