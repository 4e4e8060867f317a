import type { MouseEvent, ReactNode } from 'react';
import { Link } from '@tuber/shell-contract/router';
import { useCounter, useSession, type CounterName, type UserType } from '@tuber/shell-contract';
import { Button, buttonClass, useT } from '@tuber/ui';
import { CounterBadge } from '../dashboard/CounterBadge.js';
import { profilePageOf } from '../dashboard/menus.js';
import { shellCatalogue } from '../i18n/catalogue.js';
import { useShellChrome } from '../session/ShellChrome.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import styles from './header.module.css';

/** A plain click goes straight to Keycloak's login page; a modified click (new tab) still opens /login, which does the same. */
const plainClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** Sticky header: wordmark to "/"; guests get Join now and Login, signed-in users Go to Profile and Logout. */
export function Header() {
  const session = useSession();
  const { login } = useShellChrome();
  const t = useT(shellCatalogue);
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to="/" className={styles.wordmark} aria-label={t('header.home-label')}>
          Tuber Market
        </Link>
        <nav
          className={`${styles.actions} ${session.status === 'signed-in' ? styles.signedIn : ''}`}
          aria-label={t('header.account-label')}
        >
          <LanguageSwitch />
          {session.status === 'anonymous' && (
            <>
              <Link to="/onboarding" className={buttonClass('primary', styles.action)}>
                {t('header.join')}
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
                {t('header.login')}
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
  const t = useT(shellCatalogue);
  return (
    <>
      <UnreadBell userType={userType} />
      {userType === 'buyer' && <CartLink />}
      {/* On a phone a person icon (its name said to screen readers): with the bell, the cart and the language
          switch, the words no longer fit 360 px in every language (issue 25). */}
      <Link to={profilePageOf(userType)} className={buttonClass('primary', `${styles.action} ${styles.profile}`)}>
        <svg className={styles.profileIcon} viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className={styles.profileText}>{t('header.profile')}</span>
      </Link>
      <Button variant="secondary" className={styles.action} onClick={openLogout}>
        {t('header.logout')}
      </Button>
    </>
  );
}

/**
 * New answers or requests, seen without opening any menu (issue 25): a bell with the unread count, to the
 * inbox (farmer) or My requests (buyer), shown while there is something unread. The count is also said to
 * screen readers when it changes (a polite live region that is always on the page).
 */
function UnreadBell({ userType }: { userType: UserType }) {
  const t = useT(shellCatalogue);
  const count = useCounter('unread');
  const to = userType === 'farmer' ? '/dashboard/inbox' : '/dashboard/requests';
  return (
    <>
      <span role="status" className={styles.visuallyHidden}>
        {count > 0 ? t('badge.unread', { count }) : ''}
      </span>
      {count > 0 && (
        <CountLink to={to} label={t(userType === 'farmer' ? 'menu.requests' : 'menu.my-requests')} counter="unread" bell>
          <path d={BELL} />
        </CountLink>
      )}
    </>
  );
}

/** The buyer's cart, always one tap away, with the number of items in it (issue 12). */
function CartLink() {
  const t = useT(shellCatalogue);
  return (
    <CountLink to="/dashboard/cart" label={t('header.cart')} counter="cart">
      <path d="M3 4h2.2l2.3 10.2a1.5 1.5 0 0 0 1.5 1.2h8.3a1.5 1.5 0 0 0 1.4-1.1L20.5 8H6.4" />
      <circle cx="9.5" cy="19.5" r="1.5" fill="currentColor" stroke="none" />
      <circle cx="17" cy="19.5" r="1.5" fill="currentColor" stroke="none" />
    </CountLink>
  );
}

const BELL = 'M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0';

/** A round header icon that links somewhere, its name for screen readers, and a count on its corner. */
function CountLink({
  to,
  label,
  counter,
  bell,
  children,
}: {
  to: string;
  label: string;
  counter: CounterName;
  bell?: boolean;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={styles.cart} {...(bell ? { 'data-bell': '' } : {})}>
      <svg
        viewBox="0 0 24 24"
        width="22"
        height="22"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {children}
      </svg>
      <span className={styles.visuallyHidden}>{label}</span>
      <CounterBadge counter={counter} className={styles.cartBadge} />
    </Link>
  );
}
