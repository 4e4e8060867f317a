import { useT } from '@tuber/ui';
import { useRouteError } from '@tuber/ui/router';
import { shellCatalogue } from '../i18n/catalogue.js';
import { describeRouteError } from './routeError.js';
import styles from './pages.module.css';

export function RouteErrorPage() {
  const error = useRouteError();
  const t = useT(shellCatalogue);
  return (
    <section className={styles.page} role="alert">
      <h1 className={styles.title}>{t('route-error.title')}</h1>
      <p className={styles.detail}>{describeRouteError(error)}</p>
    </section>
  );
}
