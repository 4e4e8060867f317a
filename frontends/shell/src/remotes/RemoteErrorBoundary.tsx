import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Spinner } from '@tuber/ui';
import { isContractMismatch } from './contractMismatch.js';
import { RemoteFallback } from './RemoteFallback.js';
import { contractProblems } from './registry.js';

interface Props {
  remote: string;
  onRetry: () => void;
  children?: ReactNode;
}

interface State {
  error: Error | null;
  /** Whether the remote and this shell do not fit; null while the remote's manifest is being compared. */
  mismatch: boolean | null;
}

/** Catches a remote that cannot be fetched, does not fit this shell, or throws while rendering. */
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, mismatch: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    const caught = error instanceof Error ? error : new Error(String(error));
    return { error: caught, mismatch: isContractMismatch(caught) ? true : null };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`[shell] remote "${this.props.remote}" failed`, error, info.componentStack);
    if (this.state.mismatch !== null) return;
    // The runtime only warns when a strict range is missed; the remote's manifest says whether it was.
    void contractProblems(this.props.remote).then((unmet) => {
      if (unmet.length) console.error(`[shell] remote "${this.props.remote}" needs what this page does not provide: ${unmet.join('; ')}`);
      this.setState({ mismatch: unmet.length > 0 });
    });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    if (this.state.mismatch === null) return <Spinner />;
    return <RemoteFallback remote={this.props.remote} mismatch={this.state.mismatch} onRetry={this.props.onRetry} />;
  }
}
