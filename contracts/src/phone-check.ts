// Verifying a phone number by SMS (issue 26, docs/adr/0070): the profile service sends a 6-digit code to the
// profile's number and marks the number verified when the code comes back. The limits are here so that the
// front ends word them with the server's own figures.
import { Type, type Static } from '@sinclair/typebox';
import { LocaleSchema } from './locales.js';

export const PHONE_CODE_DIGITS = 6;
/** A code is good for this long after it was sent. */
export const PHONE_CODE_TTL_MINUTES = 10;
/** Wrong codes taken before the code is spent. */
export const PHONE_CODE_TRIES = 5;
/** The wait between two codes to one account. */
export const PHONE_CODE_RESEND_SECONDS = 60;
/** Codes a day, per account and per number (an SMS costs money: nobody may make us send them without end). */
export const PHONE_CODES_PER_DAY = 5;

/** POST /api/profile/me/phone/code: where the code went and when the next may be asked for. */
export const PhoneCodeSent = Type.Object({
  /** The profile's number the code went to, E.164 digits. */
  phone: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  /** The earliest moment another code may be asked for. */
  resend_at: Type.String({ format: 'date-time' }),
  tries: Type.Integer({ minimum: 1, description: 'wrong codes this one takes before it is spent' }),
});
export type PhoneCodeSent = Static<typeof PhoneCodeSent>;

/** POST /api/profile/me/phone/code (optional body): the language the page is in, which the SMS is written in. */
export const PhoneCodeRequest = Type.Object(
  { locale: Type.Optional(LocaleSchema) },
  { additionalProperties: false, description: 'the SMS is in `locale`, else in the language of the account (the token), else English' },
);
export type PhoneCodeRequest = Static<typeof PhoneCodeRequest>;

/** POST /api/profile/me/phone/verify. */
export const PhoneCodeInput = Type.Object(
  { code: Type.String({ pattern: `^[0-9]{${PHONE_CODE_DIGITS}}$`, description: 'the 6 digits of the SMS' }) },
  { additionalProperties: false },
);
export type PhoneCodeInput = Static<typeof PhoneCodeInput>;
