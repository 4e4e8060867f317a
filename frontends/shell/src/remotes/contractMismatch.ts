// Whether a remote failed because it and this shell do not fit each other's contract (docs/adr/0054), as
// opposed to a network problem: then retrying the same page cannot help, a reload that fetches the current
// shell may, and the person is told so. Two ways to tell: the error itself, and, since the federation runtime
// only warns when a strict singleton range is missed and the remote then fails on an undefined module,
// the remote's manifest compared with what this shell provides (unmetRequirements).
import { satisfy } from '@module-federation/enhanced/runtime';
const MISMATCH = [
  // The federation runtime, on a shared singleton whose version misses a strict range (the shell contract's).
  /does not satisfy the requirement/,
  // A remote that expects the host to hand it the federation runtime core (ADR 0045), under a shell that does not.
  /setGlobalFederationConstructor|_FEDERATION_RUNTIME_CORE/,
  // A remote that found no shell contract provided and fell back to its own copy, which nothing provides.
  /needs a <ShellProvider>/,
];

export function isContractMismatch(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  return MISMATCH.some((pattern) => pattern.test(text));
}

/** A shared module as a remote's mf-manifest.json lists it. */
export interface ManifestShare {
  name: string;
  singleton?: boolean;
  requiredVersion?: string;
}

/**
 * The singletons a remote's manifest asks for in a range this shell's own copy (`provided`: name → version)
 * does not meet, as "name range (this page has version)". Empty when they fit, or when the manifest is not one.
 */
export function unmetRequirements(manifest: unknown, provided: ReadonlyMap<string, string>): string[] {
  const shared = (manifest as { shared?: unknown } | null)?.shared;
  if (!Array.isArray(shared)) return [];
  const unmet: string[] = [];
  for (const share of shared as ManifestShare[]) {
    const version = provided.get(share.name);
    const range = share.requiredVersion;
    if (!share.singleton || !version || !range || range === '*') continue;
    if (!satisfy(version, range)) unmet.push(`${share.name} ${range} (this page has ${version})`);
  }
  return unmet;
}
