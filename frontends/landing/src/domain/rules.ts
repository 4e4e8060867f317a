// The account rules and messages of the spec (§5, §8, §9) as small pure functions the pages call.
// The constants are the spec's English; what the functions return is in the chosen language (issue 13).
import { ApiError } from '@tuber/shell-contract';
import { problemText, translate } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';

const t = (id: string, values?: Record<string, string | number>) => translate(landingCatalogue, id, values);

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match!';
/** 8, not the spec's 6: OWASP ASVS 5.0 level 1, the same rule as Keycloak's policy (docs/adr/0012). */
export const MIN_PASSWORD_LENGTH = 8;
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
/** The hint under every new-password field. */
export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters; avoid common passwords.`;
export const NO_ACTIVE_SESSION = 'No active session. Please request a new reset link.';
export const REGISTRATION_SUCCESSFUL = 'Registration successful! Please verify your email.';
export const RESET_LINK_SENT = 'Password reset link sent to your email!';
export const PASSWORD_UPDATED = 'Password updated successfully!';
export const VERIFICATION_RESENT = 'Verification email resent! Please check your inbox.';
/** Spec §9: the wait before /login after a reset e-mail was sent or the password was updated. */
export const REDIRECT_DELAY_MS = 3000;

/** The hint under the phone field: a Nigerian number, in the form people write it (issue 12). */
export const PHONE_HINT = 'e.g. 0803 123 4567';

/**
 * The server's sentence about the phone number when it refused the sign-up for it (a number that is
 * not Nigerian, issue 12), to show on the field itself; undefined for any other refusal.
 */
export function phoneFieldProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.statusCode !== 400) return undefined;
  // By its code (docs/adr/0064); an auth service from before codes said it in its message.
  if (error.code === 'PHONE_INVALID' || (error.code === undefined && /phone number/i.test(error.message))) return problemText(error);
  return undefined;
}

/** The seven tubers a farmer can grow (spec §5), in the spec's order. */
export const TUBERS = ['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger'] as const;

/**
 * New passwords (sign-up and reset, one rule): they must match, then be at least 8 characters. The server
 * checks again, with its blocklist of common passwords; its message is shown when it refuses.
 */
export function newPasswordProblem(password: string, confirm: string): string | undefined {
  if (password !== confirm) return t('password.mismatch');
  if (password.length < MIN_PASSWORD_LENGTH) return t('password.too-short', { min: MIN_PASSWORD_LENGTH });
  return undefined;
}

export const signupPasswordProblem = newPasswordProblem;
export const resetPasswordProblem = newPasswordProblem;

/**
 * "Registration failed: {message}" when the server refused the sign-up, "An unexpected error occurred: {message}"
 * when it could not be reached or broke.
 */
export function signupFailure(error: unknown): string {
  if (error instanceof ApiError && error.statusCode > 0 && error.statusCode < 500)
    return t('toast.registration-failed', { message: problemText(error) });
  return t('toast.unexpected-error', { message: problemText(error) });
}

/** "Failed to resend: {message}" (spec §8, verification). */
export function resendFailure(error: unknown): string {
  return t('toast.resend-failed', { message: problemText(error) });
}

/** "Error: {message}" (reset e-mail, session and password update failures). */
export function errorToast(error: unknown): string {
  return t('toast.error', { message: problemText(error) });
}

/** The reset link carries its single-use token in the fragment: /reset-password#token=… */
export function resetTokenFrom(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && token.trim() ? token.trim() : null;
}
