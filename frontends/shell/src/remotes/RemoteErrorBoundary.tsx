import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@tuber/ui';
import { isContractMismatch } from './contractMismatch.js';
import styles from './remote.module.css';

interface Props {
  remote: string;
  onRetry: () => void;
  children?: ReactNode;
}

/** Catches a remote that cannot be fetched or that throws while rendering, and offers a retry. */
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
    if (isContractMismatch(this.state.error)) {
      // A remote and this page's shell that do not fit (docs/adr/0054): "Try again" would fail the same way.
      return (
        <section className={styles.fallback} role="alert" data-remote-fallback={this.props.remote} data-contract-mismatch="">
          <h2 className={styles.title}>This part of Tuber Market needs a newer page</h2>
          <p className={styles.text}>It was updated and no longer fits the page you have open. Reload the page to get the current one.</p>
          <Button onClick={() => window.location.reload()}>Reload page</Button>
        </section>
      );
    }
    return (
      <section className={styles.fallback} role="alert" data-remote-fallback={this.props.remote}>
        <h2 className={styles.title}>This part of Tuber Market could not be loaded</h2>
        <p className={styles.text}>
          It may be a brief network problem or an update in progress. Please check your connection and try again.
        </p>
        <Button onClick={this.props.onRetry}>Try again</Button>
      </section>
    );
  }
}
