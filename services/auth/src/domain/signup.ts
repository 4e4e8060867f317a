// Sign-up requests (spec §5): every field required, passwords must match; farmers also give
// a business name, a location and the tubers they grow (no minimum enforced).
import { Type, type Static } from '@sinclair/typebox';
import { LocaleSchema, nigerianE164, PHONE_E164_PROBLEM, TUBER_TYPES, TuberTypeSchema } from '@tuber/contracts';
import { problem, type Problem } from '@tuber/kit';

const text = (description: string, maxLength = 120) => Type.String({ minLength: 1, maxLength, pattern: '\\S', description });

const person = {
  firstname: text('first name', 60),
  lastname: text('last name', 60),
  email: Type.String({ format: 'email', maxLength: 254 }),
  phone: Type.String({
    minLength: 7,
    maxLength: 20,
    pattern: '^\\+?[0-9 ()./-]{7,20}$',
    description: 'Nigerian telephone number (0803 123 4567, +234 803 123 4567, …); stored in E.164 digits (2348031234567)',
  }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
  confirm_password: Type.String({ minLength: 1, maxLength: 128 }),
  /** Issue 13: the language the person chose in the app; kept as the account's Keycloak locale (its mails and pages). */
  locale: Type.Optional(LocaleSchema),
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
/** The spec's message with the ASVS minimum (8) instead of its 6: docs/adr/0012. */
export const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters long';
export const MIN_PASSWORD_LENGTH = 8;
export const PASSWORD_IS_EMAIL = 'Password cannot be your e-mail address.';
export const PASSWORD_TOO_COMMON = 'This password is too common and easy to guess. Choose another one.';
/** Keycloak's realm policy refused a password the product's own rules let through. */
export const PASSWORD_REJECTED = 'Choose another password: at least 8 characters, not your e-mail address and not a common password.';

/**
 * The password rules the product states, the same as Keycloak's realm policy (length(8), notEmail,
 * maxLength(128), passwordBlacklist): checked here first so that sign-up can answer before it
 * touches Keycloak, and reset with the spec's messages. `isCommon` is the blocklist Keycloak uses.
 */
export function passwordProblem(
  password: string,
  confirm: string,
  rules: { email?: string; isCommon?: (password: string) => boolean } = {},
): Problem | undefined {
  if (password !== confirm) return problem('PASSWORDS_DO_NOT_MATCH', PASSWORDS_DO_NOT_MATCH);
  if ([...password].length < MIN_PASSWORD_LENGTH) return problem('PASSWORD_TOO_SHORT', PASSWORD_TOO_SHORT, { min: MIN_PASSWORD_LENGTH });
  if (rules.email && password.trim().toLowerCase() === rules.email.trim().toLowerCase()) return problem('PASSWORD_IS_EMAIL', PASSWORD_IS_EMAIL);
  if (rules.isCommon?.(password)) return problem('PASSWORD_TOO_COMMON', PASSWORD_TOO_COMMON);
  return undefined;
}

/** What to tell a person whose password Keycloak's policy refused, from Keycloak's reason. */
export function refusalMessage(keycloakMessage: string): Problem {
  if (/blacklist/i.test(keycloakMessage)) return problem('PASSWORD_TOO_COMMON', PASSWORD_TOO_COMMON);
  // The username is the e-mail address: notUsername and notEmail refuse the same password.
  if (/NotEmail|NotUsername/i.test(keycloakMessage)) return problem('PASSWORD_IS_EMAIL', PASSWORD_IS_EMAIL);
  return problem('PASSWORD_REJECTED', PASSWORD_REJECTED);
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** One schema violation as the validator reports it. */
export interface FieldError {
  keyword: string;
  instancePath: string;
  params?: Record<string, unknown>;
}

const FIELD_LABELS: Record<string, string> = {
  firstname: 'First name',
  lastname: 'Last name',
  password: 'Password',
  confirm_password: 'Confirm password',
  business_name: 'Farm / business name',
  location: 'Farm location',
};

/**
 * A sentence a person can act on for a field of the account forms, instead of the validator's
 * wording ("must match pattern …"). Undefined when the generic message is already clear: a missing
 * or unknown field is named by the shared error handler.
 */
export function fieldProblem(error: FieldError): Problem | undefined {
  const field = error.instancePath.split('/')[1];
  if (field === 'email') return problem('EMAIL_INVALID', 'Enter a valid e-mail address.');
  if (field === 'phone') return problem('PHONE_INVALID', PHONE_E164_PROBLEM);
  if (field === 'tuber') return problem('TUBERS_INVALID', `Choose the tubers you grow from: ${TUBER_TYPES.join(', ')} (each at most once).`);
  const label = field ? FIELD_LABELS[field] : undefined;
  if (!label) return undefined;
  if (error.keyword === 'maxLength') {
    const limit = Number(error.params?.limit);
    return problem('FIELD_TOO_LONG_NAMED', `${label} must be at most ${limit} characters.`, { field: field!, limit });
  }
  // minLength 1 or the "\S" pattern: empty, or only spaces.
  if (error.keyword === 'minLength' || error.keyword === 'pattern') return problem('FIELD_EMPTY', `${label} cannot be empty.`, { field: field! });
  return undefined;
}

/**
 * The phone number as the account keeps it (issue 12): Nigerian E.164 digits, 2348031234567, so
 * WhatsApp links and calls work from any form the person typed. A problem a person can act on
 * when it is not a Nigerian number.
 */
export function signupPhone(phone: string): { phone: string } | { problem: Problem } {
  const e164 = nigerianE164(phone);
  return e164 ? { phone: e164 } : { problem: problem('PHONE_INVALID', PHONE_E164_PROBLEM) };
}

/** The Keycloak user attributes of a new account (declared in the realm's user profile); `phone` already normalised. */
export function accountAttributes(signup: BuyerSignup | FarmerSignup, userType: 'buyer' | 'farmer'): Record<string, string[]> {
  const attributes: Record<string, string[]> = {
    phone: [signup.phone.trim()],
    user_type: [userType],
    pending_profile: ['true'],
  };
  if (signup.locale) attributes.locale = [signup.locale];
  if ('business_name' in signup) {
    attributes.business_name = [signup.business_name.trim()];
    attributes.location = [signup.location.trim()];
    attributes.tuber = [...signup.tuber];
  }
  return attributes;
}

/**
 * The characters Keycloak's `person-name-prohibited-characters` validator refuses in a first or last name
 * (its pattern: < > & " $ % ! # ? § ; * ~ / \ | ^ = [ ] { } ( ), Java's \v and \p{Cntrl}), and the length
 * the realm's user profile allows (60). Checked before the sign-up answers, so that a name Keycloak would
 * refuse in the background is a 400 naming the field, not a "Registration successful" with no account.
 */
// eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
const PERSON_NAME_PROHIBITED = /[<>&"$%!#?§;*~/\\|^=[\]{}()\u0000-\u001F\u007F\u0085\u2028\u2029]/u;
export const PERSON_NAME_MAX = 60;

export function personNameProblem(field: 'firstname' | 'lastname', value: string): Problem | undefined {
  const label = FIELD_LABELS[field];
  const name = value.trim();
  if (name.length > PERSON_NAME_MAX) {
    return problem('FIELD_TOO_LONG_NAMED', `${label} can be at most ${PERSON_NAME_MAX} characters.`, { field, limit: PERSON_NAME_MAX });
  }
  const found = PERSON_NAME_PROHIBITED.exec(name)?.[0];
  if (found === undefined) return undefined;
  // eslint-disable-next-line no-control-regex -- as above
  const shown = /[\u0000-\u001F\u007F\u0085\u2028\u2029]/u.test(found) ? 'a control character or line break' : `"${found}"`;
  return problem('NAME_CHARACTER', `${label} cannot contain ${shown}. Use letters, spaces, hyphens, apostrophes and dots.`, {
    field,
    character: shown.startsWith('"') ? found : '',
  });
}
