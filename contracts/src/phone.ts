// Nigerian phone numbers in E.164 (issue 12): what WhatsApp's wa.me links and the services store.
// Accepted: the national form (0803 123 4567), the international form (+234 803 123 4567, 234…,
// 00234…), with spaces, dashes, dots or brackets. Nigerian subscriber numbers are 10 digits after
// the country code (the trunk 0 dropped), the first of them not 0.

export const NIGERIA_COUNTRY_CODE = '234';

export const PHONE_E164_PROBLEM =
  'Enter a Nigerian phone number, like 0803 123 4567 or +234 803 123 4567 (11 digits starting with 0, or 234 and 10 digits).';

/** E.164 digits without the plus (2348031234567), or null when `input` is not a Nigerian number. */
export function nigerianE164(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[0-9 ()./-]+$/.test(trimmed)) return null;
  const plus = trimmed.startsWith('+');
  let digits = trimmed.replace(/\D/g, '');
  if (!plus && digits.startsWith('00')) digits = digits.slice(2);
  let national: string;
  if ((plus || digits.length === 13) && digits.startsWith(NIGERIA_COUNTRY_CODE)) {
    national = digits.slice(NIGERIA_COUNTRY_CODE.length);
    // "+234 0803…": a trunk 0 written after the country code.
    if (national.length === 11 && national.startsWith('0')) national = national.slice(1);
  } else if (plus) {
    return null; // another country's number
  } else if (digits.length === 11 && digits.startsWith('0')) {
    national = digits.slice(1);
  } else {
    return null;
  }
  if (!/^[1-9][0-9]{9}$/.test(national)) return null;
  return `${NIGERIA_COUNTRY_CODE}${national}`;
}

/** "+234 803 123 4567" for people to read, from E.164 digits (or the input unchanged if it is not one). */
export function displayPhone(e164: string): string {
  const m = /^234([0-9]{3})([0-9]{3})([0-9]{4})$/.exec(e164);
  return m ? `+234 ${m[1]} ${m[2]} ${m[3]}` : e164;
}

/** A wa.me link to `phone` (any form nigerianE164 accepts) with a pre-filled message, or null. */
export function whatsAppLink(phone: string, text: string): string | null {
  const e164 = nigerianE164(phone);
  return e164 ? `https://wa.me/${e164}?text=${encodeURIComponent(text)}` : null;
}
