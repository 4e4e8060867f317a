// The signed-in user as the shell contract describes it, read from the claims of Keycloak's access token.
import type { ShellUser, UserType } from '@tuber/shell-contract';

/** The claims the realm maps into the tuber-web access token (docs/api.md). */
export interface TuberClaims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  phone?: string;
  user_type?: string;
  business_name?: string;
  location?: string;
  tuber?: string[] | string;
  pending_profile?: boolean | string;
  exp?: number;
  realm_access?: { roles?: string[] };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Spec §6: user_type decides the menu; a token without one falls back to the realm role. */
function userTypeOf(claims: TuberClaims): UserType | undefined {
  if (claims.user_type === 'buyer' || claims.user_type === 'farmer') return claims.user_type;
  const roles = claims.realm_access?.roles ?? [];
  if (roles.includes('buyer')) return 'buyer';
  if (roles.includes('farmer')) return 'farmer';
  return undefined;
}

/** Returns null when the token lacks a subject (not a user token). */
export function userFromClaims(claims: TuberClaims, options: { profileReady?: boolean } = {}): ShellUser | null {
  if (!claims.sub) return null;
  const tuber = Array.isArray(claims.tuber) ? claims.tuber : claims.tuber ? [claims.tuber] : undefined;
  const pending = claims.pending_profile === true || claims.pending_profile === 'true';
  const user: ShellUser = {
    id: claims.sub,
    email: text(claims.email),
    emailVerified: claims.email_verified !== false,
    firstname: text(claims.given_name),
    lastname: text(claims.family_name),
    phone: text(claims.phone),
    // The contract's type is buyer | farmer; a missing user_type is reported by the profile step
    // ("User type not found in metadata") and shows the farmer menu like any non-buyer (spec §6).
    userType: userTypeOf(claims) ?? 'farmer',
    pendingProfile: pending && !options.profileReady,
  };
  if (claims.business_name) user.businessName = claims.business_name;
  if (claims.location) user.location = claims.location;
  if (tuber) user.tuber = tuber;
  const extra = (claims.realm_access?.roles ?? []).filter((role) => role === 'moderator');
  if (extra.length) user.roles = extra;
  return user;
}

/** True when two users differ in anything the pages show (USER_UPDATED). */
export function userChanged(before: ShellUser | null, after: ShellUser | null): boolean {
  return JSON.stringify(before) !== JSON.stringify(after);
}
