import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isContractMismatch } from './contractMismatch.js';
import { RemoteFallback } from './RemoteFallback.js';

interface Props {
  remote: string;
  onRetry: () => void;
  children?: ReactNode;
}

/** Catches a remote that cannot be fetched, does not fit this shell, or throws while rendering. */
export class RemoteErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`[shell] remote "${this.props.remote}" failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return <RemoteFallback remote={this.props.remote} mismatch={isContractMismatch(this.state.error)} onRetry={this.props.onRetry} />;
  }
}
