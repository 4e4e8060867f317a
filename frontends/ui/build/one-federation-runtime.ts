// Runtime plugin of the shell (the federation host): hands its own federation runtime to the remotes, so the
// page carries ONE copy of it (ADR 0045). Remotes are built with '@module-federation/runtime-core' as an
// external read from this global (build/webpack.ts). The host sets it when its federation instance
// starts, which is before any remoteEntry.js is fetched.
//
// Not '@module-federation/enhanced's provideExternalRuntime: its plugin imports the runtime core's
// CommonJS build while the webpack runtime imports the ES build, so the shell carried both (+22 KB gzip).
import * as runtimeCore from '@module-federation/runtime-core';

/** Read by every production remote as the external '@module-federation/runtime-core' (webpack.ts, the same name). */
const RUNTIME_CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';

export default function oneFederationRuntime() {
  return {
    name: 'tuber-one-federation-runtime',
    beforeInit<T>(args: T): T {
      const global = globalThis as Record<string, unknown>;
      global[RUNTIME_CORE_GLOBAL] ??= runtimeCore;
      return args;
    },
  };
}
