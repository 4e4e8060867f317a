// The farmer's profile form as pure functions: the values shown, the checks made before sending (the
// profile service decides; its message comes back in the toast) and the PATCH body of what changed.
import { displayPhone, nigerianE164, PHONE_E164_PROBLEM, type TuberType } from '@tuber/contracts';
import { tr } from '../i18n/t.js';
import type { FarmerProfile } from '../shared/types.js';

/** The seven tubers of the spec, in its order; typed against the contract so none can be missed. */
const TUBER_ORDER = { yam: 0, cassava: 1, potato: 2, 'sweet potato': 3, tumeric: 4, garlic: 5, ginger: 6 } as const satisfies Record<
  TuberType,
  number
>;
export const TUBERS = Object.keys(TUBER_ORDER) as TuberType[];

export interface FarmerProfileValues {
  business_name: string;
  location: string;
  phone: string;
  tuber: TuberType[];
}

export type FieldProblems = Partial<Record<keyof FarmerProfileValues, string>>;

export function valuesOf(profile: FarmerProfile): FarmerProfileValues {
  return {
    business_name: profile.business_name ?? '',
    location: profile.location ?? '',
    phone: displayPhone(profile.phone ?? ''),
    tuber: TUBERS.filter((t) => profile.tuber?.includes(t)),
  };
}

/** Ticks or unticks one tuber, keeping the spec's order. */
export function toggleTuber(tubers: readonly TuberType[], tuber: TuberType, on: boolean): TuberType[] {
  return TUBERS.filter((t) => (t === tuber ? on : tubers.includes(t)));
}

export const PHONE_HINT = PHONE_E164_PROBLEM;

/** The same phone rule as sign-up and the profile service: a Nigerian number (stored as E.164). */
export function phoneProblem(phone: string): string | undefined {
  const value = phone.trim();
  if (!value) return tr('profile.check.phone_empty');
  if (!nigerianE164(value)) return tr('profile.check.phone_shape');
  return undefined;
}

/** The same number written two ways ("0803 123 4567", "+234 803 123 4567") is no change. */
const samePhone = (a: string, b: string) => a.trim() === b.trim() || (nigerianE164(a) !== null && nigerianE164(a) === nigerianE164(b));

export function checkFarmerProfile(values: FarmerProfileValues): FieldProblems {
  const problems: FieldProblems = {};
  if (!values.business_name.trim()) problems.business_name = tr('profile.check.business_empty');
  else if (values.business_name.trim().length > 120) problems.business_name = tr('profile.check.business_long');
  if (!values.location.trim()) problems.location = tr('profile.check.location_empty');
  else if (values.location.trim().length > 200) problems.location = tr('profile.check.location_long');
  const phone = phoneProblem(values.phone);
  if (phone) problems.phone = phone;
  return problems;
}

/** Only the fields that differ from the profile as loaded (texts trimmed); empty when nothing changed. */
export function farmerProfileChange(values: FarmerProfileValues, loaded: FarmerProfileValues): Partial<FarmerProfileValues> {
  const change: Partial<FarmerProfileValues> = {};
  for (const field of ['business_name', 'location'] as const) {
    const value = values[field].trim();
    if (value !== loaded[field].trim()) change[field] = value;
  }
  if (!samePhone(values.phone, loaded.phone)) change.phone = values.phone.trim();
  if (values.tuber.join() !== loaded.tuber.join()) change.tuber = [...values.tuber];
  return change;
}
