// What the shell's own layout pieces share beyond the public contract: the logout dialog and the
// profile-setup step. Not exported to remotes (they use the contract's `auth`).
import { createContext, useContext } from 'react';
import type { SessionStore } from './keycloakSession.js';

export type ProfileSetup = 'idle' | 'creating' | 'done' | 'failed';

export interface ShellChrome {
  store: SessionStore;
  /** 'idle' until the session is known and the first-login profile step (if any) has finished. */
  profileSetup: ProfileSetup;
  /** The yellow notice's "Create my profile now". */
  createProfileNow(): Promise<void>;
  openLogout(): void;
  login(redirectTo?: string): void;
}

export const ShellChromeContext = createContext<ShellChrome | null>(null);

export function useShellChrome(): ShellChrome {
  const chrome = useContext(ShellChromeContext);
  if (!chrome) throw new Error('useShellChrome() outside <ShellRoot>');
  return chrome;
}
