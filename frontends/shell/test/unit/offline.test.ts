// What the shell's service worker keeps and refuses (issue 13, docs/adr/0042-offline.md), and the API
// client's offline refusal: the rules as plain functions, the worker itself in test/e2e/offline.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@tuber/shell-contract';
import { createApiClient } from '@tuber/ui';
import { OFFLINE_SEND_MESSAGE as CLIENT_OFFLINE_SEND } from '../../../ui/src/api.js';
import { OFFLINE_BAR_TEXT, OFFLINE_SEND_MESSAGE } from '../../src/offline/copy.js';
import { exposedFiles, isApiSend, isCachedApiPath, isRemoteEntryPath, isShellNavigation } from '../../src/sw/policy.js';

describe('what the worker keeps', () => {
  it('keeps the feed, a product by id, nutrition reads and the public price figures; nothing private beyond them', () => {
    expect(isCachedApiPath('/api/catalog/products')).toBe(true);
    expect(isCachedApiPath('/api/catalog/products/4f1c2a')).toBe(true);
    expect(isCachedApiPath('/api/nutrition/yam')).toBe(true);
    expect(isCachedApiPath('/api/catalog/prices/now')).toBe(true);
    expect(isCachedApiPath('/api/catalog/prices/sweet-potato/now')).toBe(true);
    expect(isCachedApiPath('/api/catalog/prices/yam/history')).toBe(true);
    for (const path of [
      '/api/catalog/prices',
      '/api/catalog/prices/yam',
      '/api/catalog/prices/yam/history/extra',
      '/api/catalog/products/mine',
      '/api/catalog/products/4f1c2a/edit',
      '/api/orders/requests',
      '/api/orders/unread',
      '/api/profile/me',
      '/api/auth/oidc',
      '/api/profile/farmers/x/contact',
    ])
      expect(isCachedApiPath(path), path).toBe(false);
  });

  it('asks the network first for remotes.json and the names a remote keeps across releases', () => {
    expect(isRemoteEntryPath('/remotes.json')).toBe(true);
    expect(isRemoteEntryPath('/mf/buyer/mf-manifest.json')).toBe(true);
    expect(isRemoteEntryPath('/mf/landing/remoteEntry.js')).toBe(true);
    expect(isRemoteEntryPath('/mf/buyer/__federation_expose_CartPage.27d60afa.js')).toBe(false);
    // A released version's manifest and entry too (its pages are then kept together); its chunks stay cache first.
    expect(isRemoteEntryPath('/mf/buyer/2026.11.28-31bf8c8/mf-manifest.json')).toBe(true);
    expect(isRemoteEntryPath('/mf/buyer/2026.11.28-31bf8c8/remoteEntry.js')).toBe(true);
    expect(isRemoteEntryPath('/mf/buyer/2026.11.28-31bf8c8/420.0ce6dda5.js')).toBe(false);
    expect(isRemoteEntryPath('/mf/buyer/assets/mf-manifest.json')).toBe(false);
  });

  it('answers the SPA addresses with the shell, never the APIs, sign-in, photos or the check-sso page', () => {
    expect(isShellNavigation('/dashboard/buyer/abc')).toBe(true);
    expect(isShellNavigation('/')).toBe(true);
    for (const path of [
      '/api/catalog/products',
      '/auth/realms/tuber/protocol/openid-connect/auth',
      '/files/a.webp',
      '/mf/buyer/x.js',
      '/silent-check-sso.html',
    ])
      expect(isShellNavigation(path), path).toBe(false);
  });

  it('answers a failed send in words, but leaves photo uploads alone', () => {
    expect(isApiSend('POST', '/api/orders/requests')).toBe(true);
    expect(isApiSend('PATCH', '/api/catalog/products/1')).toBe(true);
    expect(isApiSend('GET', '/api/orders/requests')).toBe(false);
    expect(isApiSend('POST', '/api/media/images')).toBe(false);
  });

  it("lists every exposed page's files of a remote's manifest, and nothing that leaves its folder", () => {
    const manifest = {
      exposes: [
        { assets: { js: { sync: ['__federation_expose_FeedPage.574827cf.js'], async: ['27.f7ef5c82.js'] }, css: { sync: [], async: [] } } },
        { assets: { js: { sync: ['365.94d25d95.js', '../shell/main.js', 'https://elsewhere.example/x.js'], async: ['27.f7ef5c82.js'] } } },
      ],
    };
    expect(exposedFiles(manifest)).toEqual(['__federation_expose_FeedPage.574827cf.js', '27.f7ef5c82.js', '365.94d25d95.js']);
    expect(exposedFiles(null)).toEqual([]);
    expect(exposedFiles({ exposes: 'x' })).toEqual([]);
  });
});

describe('offline words', () => {
  it('the bar and the send message are the issue’s', () => {
    expect(OFFLINE_BAR_TEXT).toBe('You are offline — showing what you saw last');
    expect(OFFLINE_SEND_MESSAGE).toBe(CLIENT_OFFLINE_SEND);
  });
});

describe('the API client offline', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a send without calling fetch, and still reads (the worker may have a copy)', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const fetch = vi.fn(async () => new Response('{"items":[]}', { status: 200 }));
    const api = createApiClient({ baseUrl: '/api', fetch });
    const refused = await api.post('/orders/requests', { a: 1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ statusCode: 0, error: 'Offline', message: OFFLINE_SEND_MESSAGE });
    expect(fetch).not.toHaveBeenCalled();
    await expect(api.get('/catalog/products')).resolves.toEqual({ items: [] });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('online, a send goes', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    const fetch = vi.fn(async () => new Response('{"ok":true}', { status: 201 }));
    await expect(createApiClient({ baseUrl: '/api', fetch }).post('/orders/requests', {})).resolves.toEqual({ ok: true });
  });
});
