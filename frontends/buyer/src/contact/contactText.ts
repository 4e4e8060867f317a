// Words of the Contact Farmer modal, kept apart from the component so they can be tested.
import { displayPhone } from '@tuber/contracts';
import { tr, type T } from '../i18n/t.js';
import { listWords, tuberName } from '../i18n/words.js';

/** "{business} grows {tuber list}." (spec §2), e.g. "Ada Farms grows yam and cassava." */
export function growsLine(businessName: string, tuber: readonly string[], t: T = tr): string | null {
  const crops = tuber.map((crop) => crop.trim()).filter(Boolean);
  if (crops.length === 0) return null;
  return t('contact.grows', {
    business: businessName,
    tubers: listWords(
      crops.map((crop) => tuberName(crop, t)),
      'conjunction',
    ),
  });
}

/** E.164 digits without the plus, as the profile service keeps numbers since issue 12 (2348031234567). */
const BARE_E164 = /^234[1-9]\d{9}$/;

/** A tel: link that phones understand: digits and a leading +, nothing else (bare E.164 digits get their +). */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^\d]/g, '');
  return `tel:${trimmed.startsWith('+') || BARE_E164.test(trimmed) ? '+' : ''}${digits}`;
}

/** The number as people read it: "+234 803 123 4567" for bare E.164 digits, anything else as given. */
export const phoneText = (phone: string): string => (BARE_E164.test(phone.trim()) ? displayPhone(phone.trim()) : phone);

export const mailtoHref = (email: string): string => `mailto:${email.trim()}`;
