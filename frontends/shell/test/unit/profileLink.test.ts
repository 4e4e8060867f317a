import { describe, expect, it } from 'vitest';
import { menuFor, profilePageOf } from '../../src/dashboard/menus.js';

describe('Go to Profile', () => {
  it('opens the profile page of the menu, not the dashboard home', () => {
    expect(profilePageOf('buyer')).toBe('/dashboard/buyerprofile');
    expect(profilePageOf('farmer')).toBe('/dashboard/farmerprofile');
    for (const userType of ['buyer', 'farmer'] as const)
      expect(menuFor(userType).find((link) => link.label === 'Profile')?.to).toBe(profilePageOf(userType));
  });

  it('sends anyone who is not a buyer to the farmer profile, like the menu', () => {
    expect(profilePageOf(undefined)).toBe('/dashboard/farmerprofile');
  });
});
