// /profile (spec §2): a buyer goes to /dashboard/buyer, anyone else to /dashboard/farmer. Spinner while the
// session and profile load, the error text when loading fails, "No User Logged In" when there is no user.
import { useEffect, useState } from 'react';
import { Navigate } from '@tuber/shell-contract/router';
import { ApiError, useApi, useSession } from '@tuber/shell-contract';
import { problemText, Spinner, useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { dashboardHome } from '../session/redirects.js';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './auth.module.css';

type Loaded = { state: 'loading' } | { state: 'ready'; userType: string } | { state: 'error'; message: string } | { state: 'none' };

export function ProfileRedirectPage() {
  const session = useSession();
  const api = useApi();
  const t = useT(shellCatalogue);
  const { profileSetup } = useShellChrome();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const userId = session.status === 'signed-in' ? session.user.id : null;
  const tokenType = session.status === 'signed-in' ? session.user.userType : undefined;
  const waiting = session.status === 'loading' || profileSetup === 'idle' || profileSetup === 'creating';

  useEffect(() => {
    if (waiting) return;
    if (!userId) {
      setLoaded({ state: 'none' });
      return;
    }
    let active = true;
    api
      .get<{ user_type?: string }>('/profile/me')
      .then((profile) => active && setLoaded(profile?.user_type ? { state: 'ready', userType: profile.user_type } : { state: 'none' }))
      .catch((error: unknown) => {
        if (!active) return;
        // Not created yet (the yellow notice offers to create it): the token still says who this is.
        if (error instanceof ApiError && error.statusCode === 404 && tokenType) setLoaded({ state: 'ready', userType: tokenType });
        else setLoaded({ state: 'error', message: problemText(error) });
      });
    return () => {
      active = false;
    };
  }, [api, userId, tokenType, waiting]);

  if (waiting || loaded.state === 'loading') return <Spinner label={t('profile.loading')} />;
  if (loaded.state === 'ready') return <Navigate to={dashboardHome(loaded.userType)} replace />;
  if (loaded.state === 'error')
    return (
      <section className={styles.card} role="alert">
        <p className={styles.error}>{loaded.message}</p>
      </section>
    );
  return (
    <section className={styles.card}>
      <h1 className={styles.title}>{t('profile.none')}</h1>
    </section>
  );
}
