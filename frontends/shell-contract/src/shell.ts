// The shell contract: everything a remote may ask of the shell, as one typed React context.
// The shell provides it; a remote running alone gets a stand-in from <StandaloneShell>.
// This package is a federation singleton, so host and remotes see the very same context object.
import { createContext, createElement, useContext, type ReactNode } from 'react';
import type { ApiClient } from './api.js';
import type { Toaster } from './toast.js';

export type UserType = 'buyer' | 'farmer';

export interface ShellUser {
  id: string;
  email: string;
  emailVerified: boolean;
  firstname: string;
  lastname: string;
  phone: string;
  userType: UserType;
  businessName?: string;
  location?: string;
  tuber?: string[];
  /** True until the buyer/farmer profile exists (the token's pending_profile claim). */
  pendingProfile?: boolean;
  /**
   * The realm roles beyond buyer/farmer that open parts of the app (issue 26: `moderator`, the moderation desk).
   * Optional, so every shell before it still satisfies the contract; never an access decision by itself: the
   * services check the token.
   */
  roles?: string[];
}

/** The session events of the spec (§4), as the shell reports them. */
export type SessionEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'USER_UPDATED' | 'PASSWORD_RECOVERY';

/** Sign-in actions the shell offers its pages (Keycloak behind it). Optional: stand-ins may leave it out. */
export interface ShellAuth {
  /** Sends the visitor to the login page; afterwards they come back to `redirectTo` (default /profile). */
  login(options?: { redirectTo?: string }): void;
  /** Opens the Confirm Logout dialog; "Yes, Logout" signs out. */
  logout(): void;
  /** Forgets the session in this browser without asking (e.g. after a password reset ended it on the server). */
  endSession(): Promise<void>;
  /** Listens to session events; returns the unsubscribe function. */
  onSessionEvent(listener: (event: SessionEvent) => void): () => void;
  /**
   * A fresh access token (refreshed first when near expiry), for requests the API client cannot
   * make — an upload with progress events through XMLHttpRequest. Never store it.
   */
  getAccessToken?(): Promise<string | null>;
  /**
   * Hands over to Keycloak's verified e-mail update (its UPDATE_EMAIL action); afterwards the visitor
   * comes back to `redirectTo` (a path of this site). Optional: stand-ins and older shells leave it out.
   */
  changeEmail?(options?: { redirectTo?: string }): void;
}

export type ShellSession =
  /**
   * `expected`: what this browser's last session was, for layout while the silent check runs (keep room
   * for what will most likely show, so nothing jumps when it ends). Never for access decisions.
   */
  { status: 'loading'; expected?: 'signed-in' | 'anonymous' } | { status: 'anonymous' } | { status: 'signed-in'; user: ShellUser };

/**
 * Pages the shell routes beyond those every shell of contract 1.0 has: `'/prices'` is `/prices/<tuber>`, the
 * landing remote's public price page (issue 27). New paths are added here, never removed within a major version.
 */
export type ShellPath = '/prices';

export interface ShellContract {
  /** Bumped on breaking changes, so a remote can refuse an older shell instead of misbehaving. */
  readonly version: 1;
  session: ShellSession;
  toast: Toaster;
  api: ApiClient;
  /** Present in the shell; a remote running alone may not have it. */
  auth?: ShellAuth;
  /**
   * The newer pages this shell routes, so a remote links to one only under a shell that has it (remotes and the
   * shell ship on their own days, docs/delivery.md). Optional: a shell without the field routes none of them, and
   * that is what every older shell (and @tuber/ui 0.1's context under the legacy bridge) says by leaving it out.
   */
  serves?: readonly ShellPath[];
}

/**
 * What a remote page module may export besides its component: `prefetch(context)`, called by the shell on a
 * page's first load as soon as the module is loaded and the session is known — before the page renders — so
 * the page's first request travels while React builds the page (issue 13). Optional: a shell that does not
 * call it, or a page without it, loads as before. A prefetch must be cheap, idempotent and never throw.
 */
export interface PagePrefetchContext {
  api: ApiClient;
  /** The address the page is about to render. */
  url: URL;
  session: ShellSession;
}

const ShellContext = createContext<ShellContract | null>(null);
ShellContext.displayName = 'TuberShell';

export function ShellProvider({ value, children }: { value: ShellContract; children?: ReactNode }) {
  return createElement(ShellContext.Provider, { value }, children);
}

export function useShell(): ShellContract {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell() needs a <ShellProvider> (the shell, or <StandaloneShell> when a remote runs alone)');
  return shell;
}

export const useSession = (): ShellSession => useShell().session;
export const useToast = (): Toaster => useShell().toast;
export const useApi = (): ApiClient => useShell().api;
export const useAuth = (): ShellAuth | undefined => useShell().auth;
