// Words of the Contact Farmer modal, kept apart from the component so they can be tested.

const tubers = new Intl.ListFormat('en-NG', { style: 'long', type: 'conjunction' });

/** "{business} grows {tuber list}." (spec §2), e.g. "Ada Farms grows yam and cassava." */
export function growsLine(businessName: string, tuber: readonly string[]): string | null {
  const crops = tuber.map((crop) => crop.trim()).filter(Boolean);
  if (crops.length === 0) return null;
  return `${businessName} grows ${tubers.format(crops)}.`;
}

/** A tel: link that phones understand: digits and a leading +, nothing else. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^\d]/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

export const mailtoHref = (email: string): string => `mailto:${email.trim()}`;
