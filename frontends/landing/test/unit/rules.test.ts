import { describe, expect, it } from 'vitest';
import { ApiError } from '@tuber/shell-contract';
import {
  REDIRECT_DELAY_MS,
  TUBERS,
  errorToast,
  resendFailure,
  resetPasswordProblem,
  resetTokenFrom,
  signupFailure,
  signupPasswordProblem,
  PHONE_HINT,
  phoneFieldProblem,
} from '../../src/domain/rules.js';

describe('sign-up password', () => {
  it('rejects different passwords with "Passwords do not match!"', () => {
    expect(signupPasswordProblem('secret1', 'secret2')).toBe('Passwords do not match!');
  });
  it('rejects 7 characters with "Password must be at least 8 characters long" (the spec said 6; ADR 0012)', () => {
    expect(signupPasswordProblem('abcdefg', 'abcdefg')).toBe('Password must be at least 8 characters long');
  });
  it('accepts 8 matching characters', () => {
    expect(signupPasswordProblem('abcdefgh', 'abcdefgh')).toBeUndefined();
  });
});

describe('reset password', () => {
  it('checks the match first: "Passwords do not match!"', () => {
    expect(resetPasswordProblem('abc', 'abcd')).toBe('Passwords do not match!');
  });
  it('rejects 7 characters with "Password must be at least 8 characters long" (the spec said 6; ADR 0012)', () => {
    expect(resetPasswordProblem('abcdefg', 'abcdefg')).toBe('Password must be at least 8 characters long');
  });
  it('accepts 8 matching characters', () => {
    expect(resetPasswordProblem('abcdefgh', 'abcdefgh')).toBeUndefined();
  });
  it('reads the token from "#token=…" and nothing else', () => {
    expect(resetTokenFrom('#token=abc_DEF-123')).toBe('abc_DEF-123');
    expect(resetTokenFrom('#foo=1&token=xyz')).toBe('xyz');
    expect(resetTokenFrom('')).toBeNull();
    expect(resetTokenFrom('#token=')).toBeNull();
  });
  it('waits 3000 ms before going to /login', () => {
    expect(REDIRECT_DELAY_MS).toBe(3000);
  });
});

describe('messages', () => {
  // The server's words are never shown (docs/adr/0064): its code is, in the reader's language; an answer
  // without a code (a service from before codes) is worded by its status.
  it('reports a refused sign-up as "Registration failed: {message}", the message worded from its code', () => {
    expect(signupFailure(new ApiError(400, 'Bad Request', 'Passwords do not match!', { code: 'PASSWORDS_DO_NOT_MATCH' }))).toBe(
      'Registration failed: Passwords do not match.',
    );
    expect(signupFailure(new ApiError(409, 'Conflict', 'An account with this e-mail already exists.'))).toBe(
      'Registration failed: This changed meanwhile. Reload and try again.',
    );
  });
  it('reports a network or server failure as "An unexpected error occurred: {message}"', () => {
    expect(signupFailure(new ApiError(0, 'Network Error', 'Failed to fetch', { code: 'NETWORK_FAILED' }))).toBe(
      'An unexpected error occurred: Tuber Market could not be reached. Check your connection; we will try again when it is back.',
    );
    expect(signupFailure(new TypeError('Failed to fetch'))).toMatch(/^An unexpected error occurred: Tuber Market could not be reached/);
    expect(signupFailure(new ApiError(503, 'Service Unavailable', 'x', { code: 'SIGN_IN_UNAVAILABLE' }))).toBe(
      'An unexpected error occurred: Sign-in is not working right now. Try again in a few minutes.',
    );
  });
  it('reports a failed resend as "Failed to resend: {message}", with the wait the limit gives', () => {
    expect(resendFailure(new ApiError(429, 'Too Many Requests', 'Please wait.', { code: 'RATE_LIMITED', params: { seconds: 42 } }))).toBe(
      'Failed to resend: Too many tries. Wait 42 seconds and try again.',
    );
  });
  it('formats other failures as "Error: {message}"', () => {
    expect(errorToast(new ApiError(404, 'Not Found', 'x', { code: 'SOMETHING_NEWER' }))).toBe('Error: This was not found. It may have been removed.');
  });
  it('offers the seven tubers of the spec', () => {
    expect(TUBERS).toEqual(['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger']);
  });
});

describe('the phone field (issue 12)', () => {
  const nigerian =
    'Enter a Nigerian phone number, like 0803 123 4567 or +234 803 123 4567 (11 digits starting with 0, or 234 and 10 digits).';
  it('shows the words for the phone code on the field when the server refused the phone number', () => {
    expect(phoneFieldProblem(new ApiError(400, 'Bad Request', nigerian, { code: 'PHONE_INVALID' }))).toBe(
      'Enter a Nigerian phone number, like 0803 123 4567.',
    );
    // An auth service from before codes: its sentence named the phone number.
    expect(phoneFieldProblem(new ApiError(400, 'Bad Request', nigerian))).toBe('Something in the request is not right. Check it and try again.');
  });
  it('leaves the field alone for any other refusal or failure', () => {
    expect(phoneFieldProblem(new ApiError(400, 'Bad Request', 'Passwords do not match!'))).toBeUndefined();
    expect(phoneFieldProblem(new ApiError(500, 'Internal Server Error', 'phone number store broke'))).toBeUndefined();
    expect(phoneFieldProblem(new Error('Failed to fetch'))).toBeUndefined();
  });
  it('hints at the national form', () => {
    expect(PHONE_HINT).toBe('e.g. 0803 123 4567');
  });
});
