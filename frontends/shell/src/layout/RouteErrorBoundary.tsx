// What the data router's `errorElement` did for the shell (docs/adr/0048): a page that throws while rendering
// shows the fallback in its place instead of blanking the whole app, and the next page starts afresh.
// Remote pages have their own boundary too (remotes/RemoteErrorBoundary.tsx: a failed fetch offers a retry);
// this one catches the shell's own pages, guards and layouts.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from '@tuber/shell-contract/router';

interface BoundaryProps {
  /** The error's screen; it gets whatever was thrown (not always an Error). */
  fallback: (error: unknown) => ReactNode;
  /** A new value clears a caught error: the location's key, so any navigation (even to the same URL) retries. */
  resetKey: string;
  children?: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  /** The resetKey this state belongs to. */
  key: string;
}

export class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, error: undefined, key: this.props.resetKey };

  // Reset before rendering, not in componentDidUpdate: the next page renders at once, with no frame of the
  // old error. A page that throws right after a navigation keeps its error: the key is taken before the
  // render that throws, so the error's own re-render finds the same key.
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.key ? null : { failed: false, error: undefined, key: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('[shell] a page failed while rendering', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/** An ErrorBoundary that clears itself when the location changes. */
export function RouteErrorBoundary({ fallback, children }: { fallback: (error: unknown) => ReactNode; children?: ReactNode }) {
  const { key } = useLocation();
  return (
    <ErrorBoundary resetKey={key} fallback={fallback}>
      {children}
    </ErrorBoundary>
  );
}
