import { useT } from '@tuber/ui';
import { Link, useLocation } from '@tuber/shell-contract/router';
import { landingCatalogue } from './i18n/catalogue.js';

/** Links that leave the landing remote (e.g. /login) land here when it runs without the shell. */
export function StandaloneNotice() {
  const { pathname } = useLocation();
  const t = useT(landingCatalogue);
  return (
    <section style={{ padding: '4rem 1.25rem', textAlign: 'center' }}>
      <h1>{pathname}</h1>
      <p>{t('standalone.text')}</p>
      <p>
        <Link to="/">{t('standalone.back')}</Link>
      </p>
    </section>
  );
}
