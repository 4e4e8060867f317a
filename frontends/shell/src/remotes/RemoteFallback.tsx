// What stands in for a remote's page when it cannot run (RemoteErrorBoundary), in the page's language.
import { Button, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import styles from './remote.module.css';

export function RemoteFallback({ remote, mismatch, onRetry }: { remote: string; mismatch: boolean; onRetry: () => void }) {
  const t = useT(shellCatalogue);
  // A remote and this page's shell that do not fit (docs/adr/0054): "Try again" would fail the same way.
  if (mismatch) {
    return (
      <section className={styles.fallback} role="alert" data-remote-fallback={remote} data-contract-mismatch="">
        <h2 className={styles.title}>{t('remote.mismatch.title')}</h2>
        <p className={styles.text}>{t('remote.mismatch.text')}</p>
        <Button onClick={() => window.location.reload()}>{t('remote.mismatch.reload')}</Button>
      </section>
    );
  }
  return (
    <section className={styles.fallback} role="alert" data-remote-fallback={remote}>
      <h2 className={styles.title}>{t('remote.failed.title')}</h2>
      <p className={styles.text}>{t('remote.failed.text')}</p>
      <Button onClick={onRetry}>{t('remote.failed.retry')}</Button>
    </section>
  );
}
