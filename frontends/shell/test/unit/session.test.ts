import { describe, expect, it } from 'vitest';
import { userFromClaims } from '../../src/session/claims.js';
import { keepForNextPage, showKeptToast } from '../../src/session/flash.js';
import { dashboardHome, safeReturnPath } from '../../src/session/redirects.js';
import { refreshDelayMs, shouldRetryRefresh } from '../../src/session/timing.js';
import { buyerMenu, farmerMenu, menuFor } from '../../src/dashboard/menus.js';

const farmerClaims = {
  sub: 'u-1',
  email: 'ada@farm.ng',
  email_verified: true,
  given_name: 'Ada',
  family_name: 'Obi',
  phone: '+2348030000000',
  user_type: 'farmer',
  business_name: 'Ada Tubers',
  location: 'Ibadan',
  tuber: ['yam', 'ginger'],
  pending_profile: true,
};

describe('the signed-in user from the token', () => {
  it('maps given_name/family_name to firstname/lastname and keeps the farmer fields', () => {
    expect(userFromClaims(farmerClaims)).toEqual({
      id: 'u-1',
      email: 'ada@farm.ng',
      emailVerified: true,
      firstname: 'Ada',
      lastname: 'Obi',
      phone: '+2348030000000',
      userType: 'farmer',
      businessName: 'Ada Tubers',
      location: 'Ibadan',
      tuber: ['yam', 'ginger'],
      pendingProfile: true,
    });
  });
  it('reads pending_profile given as a string, and forgets it once the profile is known to exist', () => {
    expect(userFromClaims({ ...farmerClaims, pending_profile: 'true' })?.pendingProfile).toBe(true);
    expect(userFromClaims({ ...farmerClaims, pending_profile: 'false' })?.pendingProfile).toBe(false);
    expect(userFromClaims(farmerClaims, { profileReady: true })?.pendingProfile).toBe(false);
  });
  it('takes a single tuber as a list, and falls back to the realm role for user_type', () => {
    const user = userFromClaims({ sub: 'u-2', tuber: 'yam', realm_access: { roles: ['offline_access', 'buyer'] } });
    expect(user?.tuber).toEqual(['yam']);
    expect(user?.userType).toBe('buyer');
  });
  it('treats a user without a type like any non-buyer (farmer menu)', () => {
    expect(userFromClaims({ sub: 'u-3' })?.userType).toBe('farmer');
  });
  it('returns null without a subject', () => {
    expect(userFromClaims({ email: 'x@y.z' })).toBeNull();
  });
});

describe('redirects', () => {
  it('sends a buyer to /dashboard/buyer and anyone else to /dashboard/farmer', () => {
    expect(dashboardHome('buyer')).toBe('/dashboard/buyer');
    expect(dashboardHome('farmer')).toBe('/dashboard/farmer');
    expect(dashboardHome(undefined)).toBe('/dashboard/farmer');
  });
  it('comes back to the page the visitor came from, after login', () => {
    expect(safeReturnPath('/dashboard/cart')).toBe('/dashboard/cart');
    expect(safeReturnPath('/dashboard/buyer/abc?x=1#y')).toBe('/dashboard/buyer/abc?x=1#y');
  });
  it('never returns to another site or to a guest-only page', () => {
    for (const from of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      'dashboard',
      undefined,
      42,
      '/login',
      '/onboarding/',
      '/forgot-password?x=1',
    ]) {
      expect(safeReturnPath(from)).toBe('/profile');
    }
  });
});

describe('token refresh timing', () => {
  it('refreshes 30 s before expiry, corrected by the clock skew', () => {
    const now = 1_000_000_000;
    expect(refreshDelayMs(now / 1000 + 300, now)).toBe(270_000);
    // keycloak-js's timeSkew is the browser's clock minus the server's: a browser 10 s behind reads the expiry 10 s earlier.
    expect(refreshDelayMs(now / 1000 + 300, now, -10)).toBe(260_000);
    expect(refreshDelayMs(now / 1000 + 300, now, 10)).toBe(280_000);
  });
  it('never schedules sooner than 5 s (no tight loop with an almost expired token)', () => {
    expect(refreshDelayMs(100, 1_000_000_000)).toBe(5_000);
  });
  it('retries a failed refresh while the refresh token is held and valid, and gives up otherwise', () => {
    const now = 1_000_000_000;
    expect(shouldRetryRefresh('rt', now / 1000 + 600, now)).toBe(true); // offline for a moment
    expect(shouldRetryRefresh(undefined, now / 1000 + 600, now)).toBe(false); // Keycloak refused it: keycloak-js dropped it
    expect(shouldRetryRefresh('rt', now / 1000 - 1, now)).toBe(false); // the SSO session is over
    expect(shouldRetryRefresh('rt', now / 1000 + 5, now, -10)).toBe(false); // expired by the server's clock (browser 10 s behind)
    expect(shouldRetryRefresh('rt', undefined, now)).toBe(true);
  });
});

describe('menus', () => {
  it("gives buyers the spec's products, carts and profile with My requests before Profile, and anyone else the farmer menu", () => {
    expect(buyerMenu.map((l) => [l.label, l.to, l.badge])).toEqual([
      ['Products', '/dashboard/buyer', undefined],
      ['Cart', '/dashboard/cart', 'cart'],
      ['My requests', '/dashboard/requests', 'unread'],
      ['Profile', '/dashboard/buyerprofile', undefined],
    ]);
    expect(farmerMenu.map((l) => [l.label, l.to, l.badge])).toEqual([
      ['Add Product', '/dashboard/farmer', undefined],
      ['Product Lists', '/dashboard/productLists', undefined],
      ['Requests', '/dashboard/inbox', 'unread'],
      ['Insights', '/dashboard/insights', undefined],
      ['Profile', '/dashboard/farmerprofile', undefined],
    ]);
    expect(menuFor('buyer')).toEqual(buyerMenu);
    expect(menuFor('farmer')).toEqual(farmerMenu);
    expect(menuFor(undefined)).toEqual(farmerMenu);
    // The moderation desk (issue 26) is added for moderators only, after their own menu.
    expect(menuFor('buyer', ['moderator'])).toEqual([...buyerMenu, { label: 'Moderation', key: 'menu.moderation', to: '/dashboard/moderation' }]);
    expect(menuFor('farmer', ['offline_access'])).toEqual(farmerMenu);
  });
});

describe('a toast across a page load', () => {
  class MemoryStorage {
    items = new Map<string, string>();
    getItem = (key: string) => this.items.get(key) ?? null;
    setItem = (key: string, value: string) => void this.items.set(key, value);
    removeItem = (key: string) => void this.items.delete(key);
  }
  it('shows "Logged out successfully" once on the next page', () => {
    const storage = new MemoryStorage() as unknown as Storage;
    const shown: string[] = [];
    const toaster = {
      success: (m: string) => shown.push(`success:${m}`),
      error: (m: string) => shown.push(`error:${m}`),
      info: (m: string) => shown.push(`info:${m}`),
    };
    keepForNextPage('success', 'Logged out successfully', storage);
    showKeptToast(toaster, storage);
    showKeptToast(toaster, storage);
    expect(shown).toEqual(['success:Logged out successfully']);
  });
});
