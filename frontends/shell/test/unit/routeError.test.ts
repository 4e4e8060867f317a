import { describe, expect, it } from 'vitest';
import { describeRouteError } from '../../src/pages/routeError.js';

describe('router fallback "Unexpected Application Error!"', () => {
  it('shows the status of a route error response', () => {
    const response = { status: 503, statusText: 'Service Unavailable', internal: false, data: null };
    expect(describeRouteError(response)).toBe('503 Service Unavailable');
  });
  it('shows the message of a thrown error', () => {
    expect(describeRouteError(new Error('Failed to fetch dynamically imported module'))).toBe(
      'Failed to fetch dynamically imported module',
    );
  });
  it('shows a thrown string, and something for anything else', () => {
    expect(describeRouteError('boom')).toBe('boom');
    expect(describeRouteError(undefined)).toBe('Unknown error');
  });
});
