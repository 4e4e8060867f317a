import { Link } from 'react-router-dom';
import { Button, buttonClass, useSession } from '@tuber/ui';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './header.module.css';

/** Sticky header: wordmark to "/"; guests get Join now and Login, signed-in users Go to Profile and Logout. */
export function Header() {
  const session = useSession();
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to="/" className={styles.wordmark} aria-label="Tuber Market home">
          Tuber Market
        </Link>
        <nav className={styles.actions} aria-label="Account">
          {session.status === 'anonymous' && (
            <>
              <Link to="/onboarding" className={buttonClass('primary', styles.action)}>
                Join now
              </Link>
              <Link to="/login" className={buttonClass('secondary', styles.action)}>
                Login
              </Link>
            </>
          )}
          {session.status === 'signed-in' && <SignedInActions />}
        </nav>
      </div>
    </header>
  );
}

function SignedInActions() {
  const { openLogout } = useShellChrome();
  return (
    <>
      <Link to="/profile" className={buttonClass('primary', styles.action)}>
        Go to Profile
      </Link>
      <Button variant="secondary" className={styles.action} onClick={openLogout}>
        Logout
      </Button>
    </>
  );
}
