// What a remote gets when it runs as its own app (its dev server or standalone page): the same contract the
// shell provides, with an anonymous session, working toasts and the gateway's API.
import { useMemo, useState, type ReactNode } from 'react';
import { ShellProvider, type ShellContract, type ShellSession } from '@tuber/shell-contract';
import { createApiClient } from './api.js';
import { ToastHost } from './toast/ToastHost.js';
import { createToastStore } from './toast/toastStore.js';

export function StandaloneShell({ children, session = { status: 'anonymous' }, apiBaseUrl = '/api' }: { children?: ReactNode; session?: ShellSession; apiBaseUrl?: string }) {
  const [toasts] = useState(() => createToastStore());
  const contract = useMemo<ShellContract>(
    () => ({ version: 1, session, toast: toasts, api: createApiClient({ baseUrl: apiBaseUrl }) }),
    [session, toasts, apiBaseUrl],
  );
  return (
    <ShellProvider value={contract}>
      {children}
      <ToastHost store={toasts} />
    </ShellProvider>
  );
}
