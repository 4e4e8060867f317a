// Provides the shell contract (session, toasts, API client) to the shell and every remote it mounts.
import { useMemo, useState, type ReactNode } from 'react';
import { createApiClient, createToastStore, ShellProvider, ToastHost, type ShellContract, type ShellSession } from '@tuber/ui';

export function ShellRoot({ children }: { children?: ReactNode }) {
  const [toasts] = useState(() => createToastStore());
  // Anonymous until the sign-in issue brings the Keycloak session here.
  const [session] = useState<ShellSession>({ status: 'anonymous' });
  const [api] = useState(() => createApiClient({ baseUrl: '/api', getAccessToken: () => null }));
  const contract = useMemo<ShellContract>(() => ({ version: 1, session, toast: toasts, api }), [session, toasts, api]);
  return (
    <ShellProvider value={contract}>
      {children}
      <ToastHost store={toasts} />
    </ShellProvider>
  );
}
