import { useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { describeRouteError } from './routeError.js';
import styles from './pages.module.css';

/** A page's render error, as caught by layout/RouteErrorBoundary.tsx. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const t = useT(shellCatalogue);
  return (
    <section className={styles.page} role="alert">
      <h1 className={styles.title}>{t('route-error.title')}</h1>
      <p className={styles.detail}>{describeRouteError(error)}</p>
    </section>
  );
}
