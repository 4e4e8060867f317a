// Standalone development only (never exposed to the shell): <StandaloneShell> is anonymous, and the farmer
// APIs need a signed-in farmer. A pasted Keycloak access token (e.g. from test/support/accounts.ts) serves as
// the session, for the API client and for photo uploads, until it expires.
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { ShellProvider, useShell, type ShellContract } from '@tuber/shell-contract';
import { Button, createApiClient } from '@tuber/ui';
import type { AccessTokenSource } from '../shared/shellAccess.js';
import { sessionFromToken } from './tokenSession.js';
import styles from './standalone.module.css';

export const DEV_TOKEN_KEY = 'tuber.farmer.dev.accessToken';

function readToken(): string | null {
  try {
    return window.sessionStorage.getItem(DEV_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function DevSession({ children }: { children?: ReactNode }) {
  const shell = useShell();
  const [token, setToken] = useState(readToken);
  const contract = useMemo<ShellContract & AccessTokenSource>(
    () => ({
      ...shell,
      session: sessionFromToken(token),
      api: createApiClient({ baseUrl: '/api', getAccessToken: () => token }),
      getAccessToken: () => token,
    }),
    [shell, token],
  );

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('token') ?? '').trim();
    if (!value) return;
    window.sessionStorage.setItem(DEV_TOKEN_KEY, value);
    setToken(value);
  }

  function forget() {
    window.sessionStorage.removeItem(DEV_TOKEN_KEY);
    setToken(null);
  }

  return (
    <ShellProvider value={contract}>
      <div className={styles.devBar}>
        {contract.session.status === 'signed-in' ? (
          <>
            <span>
              Standalone, signed in as <strong>{contract.session.user.email}</strong>
            </span>
            <Button variant="secondary" onClick={forget}>
              Forget token
            </Button>
          </>
        ) : (
          <form onSubmit={save} className={styles.tokenForm}>
            <label htmlFor="dev-token">Standalone: paste a farmer's access token</label>
            <input id="dev-token" name="token" autoComplete="off" spellCheck={false} />
            <Button type="submit" variant="secondary">
              Use token
            </Button>
          </form>
        )}
      </div>
      {children}
    </ShellProvider>
  );
}
