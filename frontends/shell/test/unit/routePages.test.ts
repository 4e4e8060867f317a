import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routePage } from '../../src/remotes/routePages.js';

describe('the remote page an address shows (fetched before React renders its slot)', () => {
  it('names the landing page for / and the feed for /dashboard/buyer', () => {
    expect(routePage('/')).toEqual({ remote: 'landing', expose: 'LandingPage' });
    expect(routePage('/dashboard/buyer')).toEqual({ remote: 'buyer', expose: 'FeedPage' });
    expect(routePage('/dashboard/buyer/')).toEqual({ remote: 'buyer', expose: 'FeedPage' });
    expect(routePage('/dashboard/buyer/6f1c2a')).toEqual({ remote: 'buyer', expose: 'ProductDetailPage' });
    expect(routePage('/dashboard/productLists')).toEqual({ remote: 'farmer', expose: 'ProductListPage' });
  });

  it("names the buyer's My requests and the farmer's inbox and insights (issue 12)", () => {
    expect(routePage('/dashboard/requests')).toEqual({ remote: 'buyer', expose: 'RequestsPage' });
    expect(routePage('/dashboard/inbox')).toEqual({ remote: 'farmer', expose: 'InboxPage' });
    expect(routePage('/dashboard/insights/')).toEqual({ remote: 'farmer', expose: 'InsightsPage' });
    expect(routePage('/dashboard/inbox/extra')).toBeNull();
  });

  it("names nothing for the shell's own pages and unknown addresses", () => {
    for (const path of ['/login', '/profile', '/dashboard', '/dashboard/buyer/1/2', '/nowhere']) expect(routePage(path)).toBeNull();
  });

  it('knows every remote page routes.tsx mounts, and no other', () => {
    const routes = fs.readFileSync(new URL('../../src/routes.tsx', import.meta.url), 'utf8');
    const mounted = [...routes.matchAll(/(?:path: '([^']+)'|index: true), element: (landing|buyer|farmer|moderation)\('(\w+)'\)/g)].map(
      ([, path, remote, expose]) => ({ path: path ?? '', remote, expose }),
    );
    expect(mounted.length).toBeGreaterThanOrEqual(16);
    for (const { path, remote, expose } of mounted) {
      // Remote pages sit at the top level or under /dashboard.
      const url = path === '' ? '/' : remote === 'landing' ? `/${path}` : `/dashboard/${path.replace(':productId', 'p1')}`;
      expect(routePage(url), url).toEqual({ remote, expose });
    }
  });
});
