// The buyer's details form as pure functions: the checks made before sending (the profile service
// decides; its message comes back in the toast) and the PATCH body of what changed.
import { displayPhone, nigerianE164, PHONE_E164_PROBLEM } from '@tuber/contracts';
import type { BuyerProfile } from '../catalog/types.js';
import { tr, type T } from '../i18n/t.js';

export const profileUpdatedMessage = (t: T = tr) => t('profile.updated');
export const profileUpdateFailedMessage = (message: string, t: T = tr) => t('profile.update-failed', { message });

export interface BuyerProfileValues {
  firstname: string;
  lastname: string;
  phone: string;
}
export type FieldProblems = Partial<Record<keyof BuyerProfileValues, string>>;

export const valuesOf = (profile: BuyerProfile): BuyerProfileValues => ({
  firstname: profile.firstname ?? '',
  lastname: profile.lastname ?? '',
  phone: displayPhone(profile.phone ?? ''),
});

/** The contracts' message (English); the form shows `phone.invalid` from the catalogue, the same words. */
export const PHONE_HINT = PHONE_E164_PROBLEM;
const NAME_MAX = 60;

/** The same rules as sign-up and the profile service. */
export function checkBuyerProfile(values: BuyerProfileValues, t: T = tr): FieldProblems {
  const problems: FieldProblems = {};
  for (const field of ['firstname', 'lastname'] as const) {
    const value = values[field].trim();
    if (!value) problems[field] = t('profile.empty', { field });
    else if (value.length > NAME_MAX) problems[field] = t('profile.too-long', { field, max: NAME_MAX });
  }
  const phone = values.phone.trim();
  if (!phone) problems.phone = t('profile.empty', { field: 'phone' });
  else if (!nigerianE164(phone)) problems.phone = t('phone.invalid');
  return problems;
}

/** Only the fields that differ from the profile as loaded (trimmed); empty when nothing changed. */
export function buyerProfileChange(values: BuyerProfileValues, loaded: BuyerProfileValues): Partial<BuyerProfileValues> {
  const change: Partial<BuyerProfileValues> = {};
  for (const field of ['firstname', 'lastname'] as const) {
    if (values[field].trim() !== loaded[field].trim()) change[field] = values[field].trim();
  }
  // The same number written two ways ("0803 123 4567", "+234 803 123 4567") is no change.
  const phone = values.phone.trim();
  if (phone !== loaded.phone.trim() && !(nigerianE164(phone) !== null && nigerianE164(phone) === nigerianE164(loaded.phone)))
    change.phone = phone;
  return change;
}
