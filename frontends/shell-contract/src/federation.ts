// The one declaration of what host and remotes share at run time (docs/adr/0054). Imported by every
// module-federation.config.ts; Node-only, keep it free of browser code.
//
// Singletons: there must be exactly one React (hooks), one router (its contexts) and one shell contract
// (session, toasts, counters, locale) on the page. Nothing else of ours is shared: @tuber/ui is a library
// that every front end bundles, so a remote always brings the formatting, components and i18n runtime it
// was built and tested with.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const singleton = (requiredVersion: string) => ({ singleton: true, requiredVersion });
// The contract's range is strict: a shell whose contract does not satisfy it makes the remote's load fail, and
// the shell shows that remote's "needs a newer page" fallback, instead of running the remote half-wired on a
// contract it was not built for (React keeps the federation runtime's default: warn and use the loaded one).
const contract = (requiredVersion: string) => ({ singleton: true, requiredVersion, strictVersion: true });

/** The semver range today's front ends ask of the shell contract: its major version. */
export const SHELL_CONTRACT_RANGE = '^1.0.0';

export const sharedSingletons = {
  react: singleton('^19.0.0'),
  'react/jsx-runtime': singleton('^19.0.0'),
  'react-dom': singleton('^19.0.0'),
  'react-dom/client': singleton('^19.0.0'),
  '@tuber/shell-contract': contract(SHELL_CONTRACT_RANGE),
  // Navigation: the parts of react-router the front ends use (see router.ts), versioned with the contract.
  '@tuber/shell-contract/router': contract(SHELL_CONTRACT_RANGE),
};

/**
 * Runtime plugin of every remote: under a shell of the release before the split, which shares the contract
 * as part of @tuber/ui 0.1, the remote takes that module as its contract (legacy-host.ts). Remove it at the
 * contract step of docs/adr/0054, once no shell of that release is live.
 */
export const legacyHostPlugin = path.join(path.dirname(fileURLToPath(import.meta.url)), 'legacy-host.ts');

