import { lazy, Suspense, useMemo, useState } from 'react';
import { Spinner } from '@tuber/ui';
import { loadRemotePage } from './registry.js';
import { RemoteErrorBoundary } from './RemoteErrorBoundary.js';

/** Renders a page exposed by a remote, e.g. <RemotePage remote="landing" expose="LandingPage" />. */
export function RemotePage({ remote, expose }: { remote: string; expose: string }) {
  const [attempt, setAttempt] = useState(0);
  const Page = useMemo(() => lazy(() => loadRemotePage(remote, expose, { retry: attempt > 0 })), [remote, expose, attempt]);
  return (
    // The key resets the boundary on retry and when the route switches to another remote page.
    <RemoteErrorBoundary key={`${remote}/${expose}#${attempt}`} remote={remote} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<Spinner />}>
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
