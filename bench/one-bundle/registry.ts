// The baseline's stand-in for the shell's remote registry (frontends/shell/src/remotes/registry.ts): no
// remotes.json and no federation runtime; a page is the module bundled here (RemotePage.tsx), so the shell's
// first-load prefetch (appSession.ts) works as in the federated build without loading a remote.
import { bundledPage } from './RemotePage.js';

export type PageModule = ReturnType<typeof bundledPage>;

export function discoverRemotes(): Promise<Map<string, never>> {
  return Promise.resolve(new Map());
}

export async function preloadRemotePage(): Promise<void> {}

export async function loadRemotePage(remote: string, expose: string): Promise<PageModule> {
  return bundledPage(remote, expose);
}
