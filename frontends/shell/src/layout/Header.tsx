import type { MouseEvent } from 'react';
import { Link } from '@tuber/ui/router';
import { Button, buttonClass, useSession, type UserType } from '@tuber/ui';
import { profilePageOf } from '../dashboard/menus.js';
import { useShellChrome } from '../session/ShellChrome.js';
import styles from './header.module.css';

/** A plain click goes straight to Keycloak's login page; a modified click (new tab) still opens /login, which does the same. */
const plainClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** Sticky header: wordmark to "/"; guests get Join now and Login, signed-in users Go to Profile and Logout. */
export function Header() {
  const session = useSession();
  const { login } = useShellChrome();
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
              <Link
                to="/login"
                className={buttonClass('secondary', styles.action)}
                onClick={(event) => {
                  if (!plainClick(event)) return;
                  event.preventDefault();
                  login();
                }}
              >
                Login
              </Link>
            </>
          )}
          {session.status === 'signed-in' && <SignedInActions userType={session.user.userType} />}
        </nav>
      </div>
    </header>
  );
}

function SignedInActions({ userType }: { userType: UserType }) {
  const { openLogout } = useShellChrome();
  return (
    <>
      <Link to={profilePageOf(userType)} className={buttonClass('primary', styles.action)}>
        Go to Profile
      </Link>
      <Button variant="secondary" className={styles.action} onClick={openLogout}>
        Logout
      </Button>
    </>
  );
}
