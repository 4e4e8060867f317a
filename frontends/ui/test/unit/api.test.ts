import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../src/api.js';

type Call = { url: string; init: RequestInit };

function fakeFetch(response: () => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return response();
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('API client (shell contract)', () => {
  it('sends JSON with the bearer token to the gateway path and reads JSON back', async () => {
    const server = fakeFetch(() => Response.json({ product_id: 'p1' }, { status: 201 }));
    const api = createApiClient({ baseUrl: '/api/', getAccessToken: () => 'token-1', fetch: server.fetch });
    await expect(api.post('/catalog/products', { product_name: 'Yam' })).resolves.toEqual({ product_id: 'p1' });
    const [call] = server.calls;
    expect(call?.url).toBe('/api/catalog/products');
    expect(call?.init.method).toBe('POST');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('authorization')).toBe('Bearer token-1');
    expect(headers.get('content-type')).toBe('application/json');
    expect(call?.init.body).toBe('{"product_name":"Yam"}');
  });
  it('sends no authorization header while anonymous', async () => {
    const server = fakeFetch(() => Response.json([]));
    await createApiClient({ baseUrl: '/api', fetch: server.fetch }).get('/catalog/products');
    expect(new Headers(server.calls[0]?.init.headers).has('authorization')).toBe(false);
  });
  it('turns the services\' error shape into an ApiError with the message to show', async () => {
    const server = fakeFetch(() => Response.json({ statusCode: 400, error: 'Bad Request', message: 'Please select between 2 to 5 images.' }, { status: 400 }));
    const error = await createApiClient({ baseUrl: '/api', fetch: server.fetch }).post('/media/images', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Please select between 2 to 5 images.' });
  });
  it('reports a gateway error page (not JSON) by its status', async () => {
    const server = fakeFetch(() => new Response('<html>502</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(createApiClient({ baseUrl: '/api', fetch: server.fetch }).get('/catalog/products')).rejects.toMatchObject({ statusCode: 502, error: 'Bad Gateway' });
  });
  it('reports an unreachable server as a network error', async () => {
    const server = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    await expect(createApiClient({ baseUrl: '/api', fetch: server.fetch }).delete('/catalog/products/p1')).rejects.toMatchObject({ statusCode: 0, error: 'Network Error', message: 'fetch failed' });
  });
  it('returns undefined for an empty 204 answer', async () => {
    const server = fakeFetch(() => new Response(null, { status: 204 }));
    await expect(createApiClient({ baseUrl: '/api', fetch: server.fetch }).delete('/catalog/products/p1')).resolves.toBeUndefined();
  });
});
