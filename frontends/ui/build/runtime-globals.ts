// The global through which the shell hands its federation runtime to the remotes (ADR 0045): set by
// one-federation-runtime.ts in the shell, read by every remote's externals (webpack.ts).
export const RUNTIME_CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';
