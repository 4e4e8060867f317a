import { Link } from '@tuber/shell-contract/router';
import { buttonClass, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import styles from './pages.module.css';

export function NotFoundPage() {
  const t = useT(shellCatalogue);
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>{t('not-found.title')}</h1>
      <p className={styles.text}>{t('not-found.text')}</p>
      <Link to="/" className={buttonClass('secondary')}>
        {t('not-found.home')}
      </Link>
    </section>
  );
}
