// Where the guards send people (spec §2 and §6).
import type { UserType } from '@tuber/shell-contract';

export const BUYER_HOME = '/dashboard/buyer';
export const FARMER_HOME = '/dashboard/farmer';

/** /profile sends a buyer to the feed and anyone else to the farmer's add-product page. */
export function dashboardHome(userType: UserType | string | undefined): string {
  return userType === 'buyer' ? BUYER_HOME : FARMER_HOME;
}

/**
 * The place to come back to after login: only a path of this site (never "//host" or "https://…",
 * which would make /login an open redirect), and never a guest-only page.
 */
export function safeReturnPath(from: unknown, fallback = '/profile'): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return fallback;
  const path = from.split(/[?#]/)[0] ?? '';
  if (guestOnlyPaths.includes(path.replace(/\/$/, '') || '/')) return fallback;
  return from;
}

export const guestOnlyPaths = ['/onboarding', '/signupfarmer', '/signupbuyer', '/login', '/forgot-password'];
