// Runtime plugin of every remote (federation.ts, legacyHostPlugin): lets today's remotes run under a shell
// of the release before the contract split (docs/adr/0054, the expand step).
//
// That shell shares no '@tuber/shell-contract'. It shares '@tuber/ui' 0.1 as a singleton, and that module
// holds the very context, counters and locale store the shell provides, under the names that shell
// contract 1.x kept (a unit test holds the names). So when the page's share scope has no contract that
// anyone loaded but has a loaded @tuber/ui 0.1, the remote takes that module as its contract, and the
// router the same way. Otherwise (today's shell, or the remote alone on its dev page) nothing changes.
//
// Only the documented `resolveShare` hook and the share entries it is given are used.

/** New share key → what a shell of the release before the split provides instead. */
const LEGACY_KEYS: Record<string, string> = {
  '@tuber/shell-contract': '@tuber/ui',
  '@tuber/shell-contract/router': '@tuber/ui/router',
};

/** The @tuber/ui versions whose contract part is shell contract 1.0 (what the last shell before the split shares). */
const LEGACY_VERSION = /^0\.1\.\d+$/;

interface ShareEntry {
  from?: string;
  loaded?: boolean;
  loading?: unknown;
  lib?: unknown;
}
type ShareScope = Record<string, Record<string, ShareEntry> | undefined>;
interface ResolveShareArgs {
  shareScopeMap: Record<string, ShareScope | undefined>;
  scope: string;
  pkgName: string;
  resolver: () => unknown;
}

const inUse = (entry: ShareEntry): boolean => Boolean(entry.loaded || entry.lib || entry.loading);

/** The loaded share a legacy shell provides for `pkgName`, when the page has no contract in use. */
export function legacyShare(scope: ShareScope | undefined, pkgName: string): ShareEntry | undefined {
  const legacyKey = LEGACY_KEYS[pkgName];
  if (!scope || !legacyKey) return undefined;
  if (Object.values(scope[pkgName] ?? {}).some(inUse)) return undefined; // a shell provides the contract itself
  const legacy = Object.entries(scope[legacyKey] ?? {}).find(([version, entry]) => LEGACY_VERSION.test(version) && inUse(entry));
  return legacy?.[1];
}

/** Packages already reported in this page's console (a page resolves each share many times). */
const reported = new Set<string>();

export default function legacyHost() {
  return {
    name: 'tuber-shell-contract-legacy-host',
    resolveShare(args: ResolveShareArgs): ResolveShareArgs {
      const legacy = legacyShare(args.shareScopeMap[args.scope], args.pkgName);
      if (legacy) {
        if (!reported.has(args.pkgName)) {
          reported.add(args.pkgName);
          console.info(
            `[tuber] ${args.pkgName}: this shell is of the release before the contract split; using its ${LEGACY_KEYS[args.pkgName]} 0.1`,
          );
        }
        args.resolver = () => ({ shared: legacy, useTreesShaking: false });
      }
      return args;
    },
  };
}
