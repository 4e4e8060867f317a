// Verifying a phone number by SMS (issue 26, docs/adr/0070), as pure rules: the code, its hash, the verdict
// on a code sent back, what the profile answers show, and the SMS's words in the person's language.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  FarmerSmsAlertsChanged,
  PHONE_CODE_DIGITS,
  PHONE_CODE_RESEND_SECONDS,
  PHONE_CODE_TRIES,
  PHONE_CODE_TTL_MINUTES,
  type Locale,
} from '@tuber/contracts';
import { pendingEvent } from '@tuber/kit';

export interface PhoneCheck {
  phone: string;
  code_hash: string;
  sent_at: Date;
  expires_at: Date;
  tries_left: number;
}

/** What of a profile document these rules read. */
export interface PhoneFields {
  user_id: string;
  phone: string;
  verified_phone?: string | null;
  phone_check?: PhoneCheck | null;
  sms_alerts?: boolean | null;
  alerts_revision?: number | null;
}

/** A fresh code: six digits from the system's cryptographic source, leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 10 ** PHONE_CODE_DIGITS)).padStart(PHONE_CODE_DIGITS, '0');
}

/**
 * The code as stored: bound to the account and the number, so a hash copied to another profile or kept
 * across a number change never matches. A million codes are quickly tried against a hash: the protection is
 * the 10 minutes and the 5 tries, the hash only keeps the code out of database dumps and logs.
 */
export function codeHash(userId: string, phone: string, code: string): string {
  return createHash('sha256').update(`${userId}\n${phone}\n${code}`).digest('hex');
}

export const isVerified = (doc: Pick<PhoneFields, 'phone' | 'verified_phone'>) => Boolean(doc.verified_phone) && doc.verified_phone === doc.phone;

export function checkFor(userId: string, phone: string, code: string, now: Date): PhoneCheck {
  return {
    phone,
    code_hash: codeHash(userId, phone, code),
    sent_at: now,
    expires_at: new Date(now.getTime() + PHONE_CODE_TTL_MINUTES * 60_000),
    tries_left: PHONE_CODE_TRIES,
  };
}

/** Seconds before another code may be sent (0: now). */
export function resendWait(check: PhoneCheck | null | undefined, now: Date): number {
  if (!check) return 0;
  const next = new Date(check.sent_at).getTime() + PHONE_CODE_RESEND_SECONDS * 1000;
  return Math.max(0, Math.ceil((next - now.getTime()) / 1000));
}

export type CodeVerdict =
  | { kind: 'verified' }
  | { kind: 'already' }
  | { kind: 'none' }
  | { kind: 'phone-changed' }
  | { kind: 'spent' }
  | { kind: 'wrong'; left: number };

/** The verdict on `code` sent back for the profile `doc`, at `now`. */
export function judgeCode(doc: PhoneFields, code: string, now: Date): CodeVerdict {
  if (isVerified(doc)) return { kind: 'already' };
  const check = doc.phone_check;
  if (!check || new Date(check.expires_at).getTime() <= now.getTime()) return { kind: 'none' };
  if (check.phone !== doc.phone) return { kind: 'phone-changed' };
  if (check.tries_left <= 0) return { kind: 'spent' };
  const given = Buffer.from(codeHash(doc.user_id, doc.phone, code), 'hex');
  const kept = Buffer.from(check.code_hash, 'hex');
  if (given.length === kept.length && timingSafeEqual(given, kept)) return { kind: 'verified' };
  return { kind: 'wrong', left: check.tries_left - 1 };
}

/** Where a farmer's alerts go: the verified number while the alerts are on, else nowhere. */
export const alertsTarget = (doc: PhoneFields): string | null => (doc.sms_alerts && isVerified(doc) ? doc.phone : null);

/** The event telling the orders service where alerts go now, with the next alerts revision. */
export function alertsEvent(farmerId: string, smsTo: string | null, revision: number) {
  return pendingEvent(FarmerSmsAlertsChanged, { farmer_id: farmerId, sms_to: smsTo, revision }, `farmer-alerts:${farmerId}:${revision}`);
}

/** A profile document as the routes answer it: the verification as a flag, never the code or its hash. */
export function presentProfile<T extends PhoneFields & { user_type: 'buyer' | 'farmer' }>(doc: T) {
  const { phone_check: _check, verified_phone: _verified, ...rest } = doc;
  return {
    ...rest,
    phone_verified: isVerified(doc),
    ...(doc.user_type === 'farmer' ? { sms_alerts: Boolean(doc.sms_alerts) } : {}),
  };
}

/** The SMS with the code, in the person's language: one part each (a unit test holds it). */
export function codeSms(locale: Locale, code: string): string {
  const m = PHONE_CODE_TTL_MINUTES;
  switch (locale) {
    case 'pcm':
      return `Tuber Market code: ${code}. E go expire after ${m} minutes. No give anybody.`;
    case 'yo':
      return `Kóòdù Tuber Market: ${code}. Ó parí ní ìṣẹ́jú ${m}. Má fi han ẹnikẹ́ni.`;
    case 'ha':
      return `Lambar Tuber Market: ${code}. Za ta ƙare bayan minti ${m}. Kar ka bayar.`;
    case 'ig':
      return `Koodu Tuber Market: ${code}. Ọ ga-agwụ na nkeji ${m}. Egosila onye ọzọ.`;
    default:
      return `Tuber Market code: ${code}. It expires in ${m} minutes. Do not share it with anyone.`;
  }
}
