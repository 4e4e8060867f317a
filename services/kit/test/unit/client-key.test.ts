// Who a request is counted for by the service-wide limit (issue 24): the person where there is one, the
// address only where there is none, so that thousands of people behind one carrier address are not
// throttled together for one abuser among them.
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/index.js';

const jwt = (signature: string) => `Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.${signature}`;
const request = (headers: Record<string, string>, ip = '102.89.1.7') => ({ headers, ip });

describe('clientKey', () => {
  it('counts a signed-in request by its access token, whatever address it comes from', () => {
    const signature = 'A'.repeat(20) + 'b'.repeat(20) + '-_x';
    expect(clientKey(request({ authorization: jwt(signature) }))).toBe(`t:${signature.slice(0, 32)}`);
    expect(clientKey(request({ authorization: jwt(signature) }, '10.0.0.9'))).toBe(clientKey(request({ authorization: jwt(signature) })));
    expect(clientKey(request({ authorization: jwt('C'.repeat(43)) }))).not.toBe(clientKey(request({ authorization: jwt(signature) })));
  });

  it('counts a kept sign-in by its cookie (hashed), when the service names the cookie', () => {
    const key = clientKey(request({ cookie: 'theme=dark; tuber_session=abc123secret' }), 'tuber_session');
    expect(key).toMatch(/^s:[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain('abc123secret');
    expect(clientKey(request({ cookie: 'tuber_session=other' }), 'tuber_session')).not.toBe(key);
    expect(clientKey(request({ cookie: 'tuber_session=abc123secret' }))).toBe('102.89.1.7'); // a service that names none
  });

  it('counts by address only what carries neither: sign-in, sign-up, a made-up header', () => {
    expect(clientKey(request({}))).toBe('102.89.1.7');
    expect(clientKey(request({ authorization: 'Bearer not-a-jwt' }))).toBe('102.89.1.7');
    expect(clientKey(request({ authorization: 'Basic dXNlcjpwYXNz' }))).toBe('102.89.1.7');
  });
});
