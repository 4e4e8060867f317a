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
  it('reports a refused sign-up as "Registration failed: {message}"', () => {
    expect(signupFailure(new ApiError(409, 'Conflict', 'An account with this e-mail already exists.'))).toBe(
      'Registration failed: An account with this e-mail already exists.',
    );
  });
  it('reports a network or server failure as "An unexpected error occurred: {message}"', () => {
    expect(signupFailure(new ApiError(0, 'Network Error', 'Failed to fetch'))).toBe('An unexpected error occurred: Failed to fetch');
    expect(signupFailure(new TypeError('boom'))).toBe('An unexpected error occurred: boom');
  });
  it('reports a failed resend as "Failed to resend: {message}"', () => {
    expect(resendFailure(new ApiError(429, 'Too Many Requests', 'Please wait a minute.'))).toBe('Failed to resend: Please wait a minute.');
  });
  it('formats other failures as "Error: {message}"', () => {
    expect(errorToast(new Error('nope'))).toBe('Error: nope');
  });
  it('offers the seven tubers of the spec', () => {
    expect(TUBERS).toEqual(['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger']);
  });
});

describe('the phone field (issue 12)', () => {
  const nigerian =
    'Enter a Nigerian phone number, like 0803 123 4567 or +234 803 123 4567 (11 digits starting with 0, or 234 and 10 digits).';
  it('shows the server’s sentence on the field when it refused the phone number', () => {
    expect(phoneFieldProblem(new ApiError(400, 'Bad Request', nigerian))).toBe(nigerian);
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
