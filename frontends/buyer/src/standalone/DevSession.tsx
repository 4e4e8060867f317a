// Standalone development only (never exposed to the shell): <StandaloneShell> is anonymous, and every buyer
// API needs a signed-in user. Paste a Keycloak access token of a buyer (e.g. from the shell's session, or
// test/support/accounts.ts) and it is used for the API and as the session until it expires.
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { ShellProvider, useShell, type ShellContract, type ShellSession } from '@tuber/shell-contract';
import { createApiClient } from '@tuber/ui';

export const DEV_TOKEN_KEY = 'tuber.dev.accessToken';

function readToken(): string | null {
  try {
    return window.localStorage.getItem(DEV_TOKEN_KEY);
  } catch {
    return null;
  }
}

function sessionFromToken(token: string | null): ShellSession {
  if (!token) return { status: 'anonymous' };
  try {
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
    const text = (key: string) => (typeof claims[key] === 'string' ? (claims[key] as string) : '');
    return {
      status: 'signed-in',
      user: {
        id: text('sub'),
        email: text('email'),
        emailVerified: claims.email_verified === true,
        firstname: text('given_name'),
        lastname: text('family_name'),
        phone: text('phone'),
        userType: text('user_type') === 'farmer' ? 'farmer' : 'buyer',
      },
    };
  } catch {
    return { status: 'anonymous' };
  }
}

export function DevSession({ children }: { children?: ReactNode }) {
  const shell = useShell();
  const [token, setToken] = useState(readToken);
  const contract = useMemo<ShellContract>(
    () => ({ ...shell, session: sessionFromToken(token), api: createApiClient({ baseUrl: '/api', getAccessToken: () => token }) }),
    [shell, token],
  );

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('token') ?? '').trim();
    if (value) window.localStorage.setItem(DEV_TOKEN_KEY, value);
    else window.localStorage.removeItem(DEV_TOKEN_KEY);
    setToken(value || null);
  }

  return (
    <ShellProvider value={contract}>
      <form onSubmit={save} style={{ display: 'flex', gap: 8, padding: '6px 16px', background: '#fef9c3', fontSize: 13 }}>
        <label htmlFor="dev-token">Standalone buyer remote · access token:</label>
        <input id="dev-token" name="token" defaultValue={token ?? ''} style={{ flex: 1, minWidth: 0 }} />
        <button type="submit">Use</button>
      </form>
      {children}
    </ShellProvider>
  );
}
