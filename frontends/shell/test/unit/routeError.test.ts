import { describe, expect, it } from 'vitest';
import { describeRouteError } from '../../src/pages/routeError.js';

describe('the route error page "Unexpected Application Error!"', () => {
  it('shows the message of a thrown error', () => {
    expect(describeRouteError(new Error('Failed to fetch dynamically imported module'))).toBe(
      'Failed to fetch dynamically imported module',
    );
  });
  it('shows a thrown string, and something for anything else', () => {
    expect(describeRouteError('boom')).toBe('boom');
    expect(describeRouteError(undefined)).toBe('Unknown error');
    expect(describeRouteError({ status: 503 })).toBe('Unknown error');
  });
});
