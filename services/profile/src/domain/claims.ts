// Building a profile from the access token's claims (Keycloak user attributes mapped into it).
import { TUBER_TYPES, type TuberType } from '@tuber/contracts';
import { problem, type Problem } from '@tuber/kit';

const incomplete = (missing: string[]) =>
  problem('ACCOUNT_INCOMPLETE', `Your account is missing: ${missing.join(', ')}.`, { fields: missing.join(', ') });

export const USER_TYPE_NOT_FOUND = 'User type not found in metadata';

export interface BuyerDraft {
  user_type: 'buyer';
  user_id: string;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
}
export interface FarmerDraft extends Omit<BuyerDraft, 'user_type'> {
  user_type: 'farmer';
  business_name: string;
  location: string;
  tuber: TuberType[];
}
export type ProfileDraft = BuyerDraft | FarmerDraft;

const str = (value: unknown) =>
  typeof value === 'string' ? value.trim() : Array.isArray(value) && typeof value[0] === 'string' ? value[0].trim() : '';
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];

/** Returns the draft, or the reason it cannot be built (a person-readable message). */
export function draftFromClaims(userId: string, claims: Record<string, unknown>): ProfileDraft | { problem: Problem } {
  const userType = str(claims.user_type);
  if (userType !== 'buyer' && userType !== 'farmer') return { problem: problem('USER_TYPE_MISSING', USER_TYPE_NOT_FOUND) };
  const base = {
    user_id: userId,
    email: str(claims.email).toLowerCase(),
    firstname: str(claims.given_name) || str(claims.firstname),
    lastname: str(claims.family_name) || str(claims.lastname),
    phone: str(claims.phone),
  };
  const missing = Object.entries(base)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (userType === 'buyer') {
    return missing.length ? { problem: incomplete(missing) } : { ...base, user_type: 'buyer' };
  }
  const farmer = {
    ...base,
    user_type: 'farmer' as const,
    business_name: str(claims.business_name),
    location: str(claims.location),
    tuber: list(claims.tuber).filter((t): t is TuberType => (TUBER_TYPES as readonly string[]).includes(t)),
  };
  if (!farmer.business_name) missing.push('business_name');
  if (!farmer.location) missing.push('location');
  return missing.length ? { problem: incomplete(missing) } : farmer;
}
