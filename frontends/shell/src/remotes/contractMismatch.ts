// Whether a remote failed because it and this shell do not fit each other's contract (docs/adr/0054), as
// opposed to a network problem: then retrying the same page cannot help, a reload that fetches the current
// shell may, and the person is told so.
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
