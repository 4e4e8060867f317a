// The farmer's profile form as pure functions: the values shown, the checks made before sending (the
// profile service decides; its message comes back in the toast) and the PATCH body of what changed.
import type { TuberType } from '@tuber/contracts';
import type { FarmerProfile } from '../shared/types.js';

/** The seven tubers of the spec, in its order; typed against the contract so none can be missed. */
const TUBER_ORDER = { yam: 0, cassava: 1, potato: 2, 'sweet potato': 3, tumeric: 4, garlic: 5, ginger: 6 } as const satisfies Record<
  TuberType,
  number
>;
export const TUBERS = Object.keys(TUBER_ORDER) as TuberType[];

export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully!';
export const profileUpdateFailedMessage = (message: string) => `Error updating profile: ${message}`;
export const NO_TUBERS_NOTICE = 'With no tubers ticked you cannot post products: tick the ones you grow.';

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
    phone: profile.phone ?? '',
    tuber: TUBERS.filter((t) => profile.tuber?.includes(t)),
  };
}

/** Ticks or unticks one tuber, keeping the spec's order. */
export function toggleTuber(tubers: readonly TuberType[], tuber: TuberType, on: boolean): TuberType[] {
  return TUBERS.filter((t) => (t === tuber ? on : tubers.includes(t)));
}

const PHONE_SHAPE = /^\+?[0-9 ()-]{7,20}$/;
export const PHONE_HINT = 'Enter a valid phone number: 7 to 20 digits, spaces, dashes or brackets, optionally starting with +.';

/** The same phone rule as sign-up and the profile service. */
export function phoneProblem(phone: string): string | undefined {
  const value = phone.trim();
  if (!value) return 'Phone number cannot be empty.';
  if (!PHONE_SHAPE.test(value) || value.replace(/\D/g, '').length < 7) return PHONE_HINT;
  return undefined;
}

export function checkFarmerProfile(values: FarmerProfileValues): FieldProblems {
  const problems: FieldProblems = {};
  if (!values.business_name.trim()) problems.business_name = 'Business name cannot be empty.';
  else if (values.business_name.trim().length > 120) problems.business_name = 'Business name must be at most 120 characters.';
  if (!values.location.trim()) problems.location = 'Location cannot be empty.';
  else if (values.location.trim().length > 200) problems.location = 'Location must be at most 200 characters.';
  const phone = phoneProblem(values.phone);
  if (phone) problems.phone = phone;
  return problems;
}

/** Only the fields that differ from the profile as loaded (texts trimmed); empty when nothing changed. */
export function farmerProfileChange(values: FarmerProfileValues, loaded: FarmerProfileValues): Partial<FarmerProfileValues> {
  const change: Partial<FarmerProfileValues> = {};
  for (const field of ['business_name', 'location', 'phone'] as const) {
    const value = values[field].trim();
    if (value !== loaded[field].trim()) change[field] = value;
  }
  if (values.tuber.join() !== loaded.tuber.join()) change.tuber = [...values.tuber];
  return change;
}
