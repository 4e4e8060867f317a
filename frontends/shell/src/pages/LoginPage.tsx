// /login: the product's door to Keycloak's login page (OIDC code + PKCE). The form itself is Keycloak's,
// themed (infra/keycloak/themes/tuber); afterwards the visitor comes back where they were going.
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@tuber/ui';
import { safeReturnPath } from '../session/redirects.js';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './auth.module.css';

export function LoginPage() {
  const { login } = useShellChrome();
  const location = useLocation();
  const from = safeReturnPath((location.state as { from?: unknown } | null)?.from);
  return (
    <section className={styles.card} aria-labelledby="login-title">
      <h1 id="login-title" className={styles.title}>
        Login
      </h1>
      <p className={styles.text}>Sign in with your e-mail and password on Tuber Market&rsquo;s secure login page.</p>
      <Button className={styles.wide} onClick={() => login(from)}>
        Login
      </Button>
      <div className={styles.links}>
        <Link to="/forgot-password">Forgot Password?</Link>
        <span>
          Don&rsquo;t have an account? <Link to="/onboarding">Sign up</Link>
        </span>
      </div>
    </section>
  );
}
