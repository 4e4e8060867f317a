// Sign-up requests (spec §5): every field required, passwords must match; farmers also give
// a business name, a location and the tubers they grow (no minimum enforced).
import { Type, type Static } from '@sinclair/typebox';
import { TUBER_TYPES, TuberTypeSchema } from '@tuber/contracts';

const text = (description: string, maxLength = 120) => Type.String({ minLength: 1, maxLength, pattern: '\\S', description });

const person = {
  firstname: text('first name', 60),
  lastname: text('last name', 60),
  email: Type.String({ format: 'email', maxLength: 254 }),
  phone: Type.String({ minLength: 7, maxLength: 20, pattern: '^\\+?[0-9 ()-]{7,20}$', description: 'telephone number' }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
  confirm_password: Type.String({ minLength: 1, maxLength: 128 }),
};

export const BuyerSignup = Type.Object(person, { additionalProperties: false });
export type BuyerSignup = Static<typeof BuyerSignup>;

export const FarmerSignup = Type.Object(
  {
    ...person,
    business_name: text('farm / business name'),
    location: text('farm location / address', 200),
    tuber: Type.Array(TuberTypeSchema, { maxItems: TUBER_TYPES.length, uniqueItems: true, default: [] }),
  },
  { additionalProperties: false },
);
export type FarmerSignup = Static<typeof FarmerSignup>;

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match!';
export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
export const MIN_PASSWORD_LENGTH = 6;

/** The password rules the product states; Keycloak's realm policy enforces the same minimum. */
export function passwordProblem(password: string, confirm: string): string | undefined {
  if (password !== confirm) return PASSWORDS_DO_NOT_MATCH;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  return undefined;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The Keycloak user attributes of a new account (declared in the realm's user profile). */
export function accountAttributes(signup: BuyerSignup | FarmerSignup, userType: 'buyer' | 'farmer'): Record<string, string[]> {
  const attributes: Record<string, string[]> = {
    phone: [signup.phone.trim()],
    user_type: [userType],
    pending_profile: ['true'],
  };
  if ('business_name' in signup) {
    attributes.business_name = [signup.business_name.trim()];
    attributes.location = [signup.location.trim()];
    attributes.tuber = [...signup.tuber];
  }
  return attributes;
}
