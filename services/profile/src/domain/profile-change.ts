// What a person may change in their own profile (issue 11), as pure rules: which fields, in which
// shape, and the sentence to show when a change is refused.
import { nigerianE164, PHONE_E164_PROBLEM, TUBER_TYPES, type TuberType } from '@tuber/contracts';
import { problem, type Problem } from '@tuber/kit';

export const PERSONAL_FIELDS = ['firstname', 'lastname', 'phone'] as const;
export const FARM_FIELDS = ['business_name', 'location', 'tuber'] as const;
/** A farmer's own settings: not part of the farm buyers see. */
export const FARMER_SETTINGS = ['sms_alerts'] as const;
export const CHANGEABLE_FIELDS = [...PERSONAL_FIELDS, ...FARM_FIELDS, ...FARMER_SETTINGS] as const;

export interface ProfileChange {
  firstname?: string;
  lastname?: string;
  phone?: string;
  business_name?: string;
  location?: string;
  tuber?: TuberType[];
  sms_alerts?: boolean;
}

/**
 * The characters sign-up accepts (services/auth), so a number taken at sign-up can be saved again;
 * the number itself must then be a Nigerian one, kept in E.164 digits (issue 12).
 */
export const PHONE_PATTERN = '^\\+?[0-9 ()./-]{7,20}$';
export const PHONE_PROBLEM = PHONE_E164_PROBLEM;
export const BUYER_FARM_FIELDS_PROBLEM =
  'Business name, location, tubers and SMS alerts belong to a farmer profile; a buyer can change first name, last name and phone.';
export const EMAIL_PROBLEM =
  'Your e-mail address cannot be changed here: use "Change e-mail", and Keycloak will ask you to confirm the new address.';
export const NOTHING_TO_CHANGE = 'Nothing to update: send at least one of firstname, lastname, phone, business_name, location, tuber, sms_alerts.';

const LABELS: Record<string, string> = {
  firstname: 'First name',
  lastname: 'Last name',
  business_name: 'Business name',
  location: 'Location',
};

/** One schema violation as the validator reports it. */
export interface FieldError {
  keyword: string;
  instancePath: string;
  params?: Record<string, unknown>;
}

/** A sentence a person can act on for a refused change (instead of "must match pattern …"). */
export function changeProblem(error: FieldError): Problem {
  if (error.keyword === 'additionalProperties') {
    const field = String(error.params?.additionalProperty ?? '');
    if (field === 'email') return problem('EMAIL_CHANGE_ELSEWHERE', EMAIL_PROBLEM);
    return problem(
      'FIELD_NOT_CHANGEABLE',
      `"${field}" cannot be changed: a profile change may hold only ${CHANGEABLE_FIELDS.join(', ')}.`,
      { field },
    );
  }
  if (error.keyword === 'minProperties') return problem('NOTHING_TO_CHANGE', NOTHING_TO_CHANGE);
  if (error.keyword === 'type' && !error.instancePath) return problem('NOTHING_TO_CHANGE', NOTHING_TO_CHANGE);
  const field = error.instancePath.split('/')[1] ?? '';
  if (field === 'phone') return problem('PHONE_INVALID', PHONE_PROBLEM);
  if (field === 'tuber') return problem('TUBERS_INVALID', `Choose the tubers you grow from: ${TUBER_TYPES.join(', ')} (each at most once).`);
  const label = LABELS[field] ?? field;
  if (error.keyword === 'maxLength') {
    const limit = Number(error.params?.limit);
    return problem('FIELD_TOO_LONG_NAMED', `${label} must be at most ${limit} characters.`, { field, limit });
  }
  if (error.keyword === 'minLength' || error.keyword === 'pattern') return problem('FIELD_EMPTY', `${label} cannot be empty.`, { field });
  return problem('FIELD_INVALID_NAMED', `${label} is not valid.`, { field });
}

/**
 * The change as it will be stored: texts trimmed with inner runs of spaces made one, and the first
 * problem found, if any. `userType` decides which fields exist: a buyer has no farm.
 */
export function normaliseChange(change: ProfileChange, userType: 'buyer' | 'farmer'): { change: ProfileChange } | { problem: Problem } {
  if (userType === 'buyer' && [...FARM_FIELDS, ...FARMER_SETTINGS].some((field) => change[field] !== undefined)) {
    return { problem: problem('BUYER_FARM_FIELDS', BUYER_FARM_FIELDS_PROBLEM) };
  }
  const out: ProfileChange = {};
  for (const field of ['firstname', 'lastname', 'phone', 'business_name', 'location'] as const) {
    const value = change[field];
    if (value !== undefined) out[field] = value.trim().replace(/\s+/g, ' ');
  }
  if (out.phone !== undefined) {
    // Stored as E.164 digits (2348031234567): what WhatsApp links and calls need, whatever was typed.
    const e164 = nigerianE164(out.phone);
    if (!e164) return { problem: problem('PHONE_INVALID', PHONE_PROBLEM) };
    out.phone = e164;
  }
  // Zero tubers is allowed (spec §5: no minimum at sign-up); such a farmer cannot post until one is added.
  if (change.tuber !== undefined) out.tuber = TUBER_TYPES.filter((tuber) => change.tuber!.includes(tuber));
  if (change.sms_alerts !== undefined) out.sms_alerts = change.sms_alerts;
  return { change: out };
}

/** The fields of `change` whose value differs from `current` (a tuber list compared as a set). */
export function changedFields(change: ProfileChange, current: Partial<Record<keyof ProfileChange, unknown>>): ProfileChange {
  const differs = (field: keyof ProfileChange) => {
    const next = change[field];
    const now = current[field];
    if (Array.isArray(next)) {
      const before = Array.isArray(now) ? (now as string[]) : [];
      return next.length !== before.length || next.some((t) => !before.includes(t));
    }
    return next !== now;
  };
  return Object.fromEntries(
    (Object.keys(change) as (keyof ProfileChange)[])
      .filter((field) => change[field] !== undefined && differs(field))
      .map((f) => [f, change[f]]),
  ) as ProfileChange;
}
