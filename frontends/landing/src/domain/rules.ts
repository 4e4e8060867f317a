// The account rules and messages of the spec (§5, §8, §9) as small pure functions the pages call.
import { ApiError } from '@tuber/ui';

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match!';
export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
export const MIN_PASSWORD_LENGTH = 6;
export const NO_ACTIVE_SESSION = 'No active session. Please request a new reset link.';
export const REGISTRATION_SUCCESSFUL = 'Registration successful! Please verify your email.';
export const RESET_LINK_SENT = 'Password reset link sent to your email!';
export const PASSWORD_UPDATED = 'Password updated successfully!';
/** Spec §9: the wait before /login after a reset e-mail was sent or the password was updated. */
export const REDIRECT_DELAY_MS = 3000;

/** The seven tubers a farmer can grow (spec §5), in the spec's order. */
export const TUBERS = ['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger'] as const;

/** Sign-up: only the match is checked (a length at sign-up is "not shown"; Keycloak's policy still applies). */
export function signupPasswordProblem(password: string, confirm: string): string | undefined {
  return password === confirm ? undefined : PASSWORDS_DO_NOT_MATCH;
}

/** Reset: passwords must match, then be at least 6 characters. */
export function resetPasswordProblem(password: string, confirm: string): string | undefined {
  if (password !== confirm) return PASSWORDS_DO_NOT_MATCH;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  return undefined;
}

/**
 * "Registration failed: {message}" when the server refused the sign-up, "An unexpected error occurred: {message}"
 * when it could not be reached or broke.
 */
export function signupFailure(error: unknown): string {
  if (error instanceof ApiError && error.statusCode > 0 && error.statusCode < 500) return `Registration failed: ${error.message}`;
  return `An unexpected error occurred: ${error instanceof Error ? error.message : String(error)}`;
}

/** "Error: {message}" (reset e-mail, session and password update failures). */
export function errorToast(error: unknown): string {
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}

/** The reset link carries its single-use token in the fragment: /reset-password#token=… */
export function resetTokenFrom(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && token.trim() ? token.trim() : null;
}
