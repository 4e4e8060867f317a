// /login: the product's door to Keycloak's themed login page (OIDC code + PKCE). It sends the visitor
// there at once, so a phone never sees a second "Login" button; afterwards they come back where they
// were going. It stays as a page (with a Login button to try again) only when the hand-over cannot
// happen: sign-in is unavailable, or a login just came back from Keycloak with an error — sending
// the visitor straight back then could loop. Back from Keycloak's page goes to the landing page, not here.
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from '@tuber/shell-contract/router';
import { Button, Spinner, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { safeReturnPath } from '../session/redirects.js';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './auth.module.css';

export function LoginPage() {
  const { store, login } = useShellChrome();
  const location = useLocation();
  const t = useT(shellCatalogue);
  const from = safeReturnPath((location.state as { from?: unknown } | null)?.from);
  // Keycloak's error was already toasted by the shell ("Error logging in: …").
  const [failed, setFailed] = useState<{ message: string } | null>(() => (store.loginError ? { message: '' } : null));
  const started = useRef(false);

  useEffect(() => {
    if (started.current || store.loginError) return;
    started.current = true; // once, also under StrictMode's double effects
    // Back from Keycloak's page must not land on /login again (it would hand over again: a trap). The
    // entry this page occupies becomes the landing page before leaving; put back if the hand-over fails.
    const own = `${window.location.pathname}${window.location.search}`;
    window.history.replaceState(window.history.state, '', '/');
    store.login(from).catch((error: unknown) => {
      window.history.replaceState(window.history.state, '', own);
      setFailed({ message: error instanceof Error ? error.message : String(error) });
    });
  }, [store, from]);

  useEffect(() => {
    // A page restored from the back/forward cache still shows the hand-over's spinner: load it afresh.
    const restored = (event: PageTransitionEvent) => event.persisted && window.location.reload();
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  if (!failed) return <Spinner label={t('login.opening')} />;
  return (
    <section className={styles.card} aria-labelledby="login-title">
      <h1 id="login-title" className={styles.title}>
        {t('login.title')}
      </h1>
      {failed.message ? (
        <p className={styles.error} role="alert">
          {t('login.error', { message: failed.message })}
        </p>
      ) : (
        <p className={styles.text}>{t('login.unfinished')}</p>
      )}
      {failed.message ? (
        // Sign-in settings are read once per page load: a fresh load is the way to try again.
        <Button className={styles.wide} onClick={() => window.location.reload()}>
          {t('login.try-again')}
        </Button>
      ) : (
        <Button className={styles.wide} onClick={() => login(from)}>
          {t('login.button')}
        </Button>
      )}
      <div className={styles.links}>
        <Link to="/forgot-password">{t('login.forgot')}</Link>
        <span>
          {t('login.no-account')} <Link to="/onboarding">{t('login.sign-up')}</Link>
        </span>
      </div>
    </section>
  );
}
