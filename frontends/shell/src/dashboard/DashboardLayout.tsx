// /dashboard: fixed sidebar on large screens; on small screens a toggle opens a green slide-in menu of
// 40% of the width, closed by a close icon (spec §2). The current link is highlighted.
import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from '@tuber/shell-contract/router';
import { useCounter, useSession } from '@tuber/shell-contract';
import { useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { useShellChrome } from '../session/ShellChrome.js';
import { CounterBadge } from './CounterBadge.js';
import { badgeText, menuFor } from './menus.js';
import badgeStyles from './badge.module.css';
import styles from './dashboard.module.css';

export function DashboardLayout() {
  const session = useSession();
  const t = useT(shellCatalogue);
  const { openLogout } = useShellChrome();
  // UI state of the spec (§3): openSidebar, default false.
  const [openSidebar, setOpenSidebar] = useState(false);
  const { pathname } = useLocation();
  // The unread count on the small-screen Menu button too (issue 25): seen without opening the menu.
  const unread = useCounter('unread');
  useEffect(() => {
    setOpenSidebar(false);
  }, [pathname]);
  if (session.status !== 'signed-in') return null;
  const menu = menuFor(session.user.userType, session.user.roles);

  const links = (
    <ul className={styles.menu}>
      {menu.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} className={({ isActive }) => `${styles.link} ${isActive ? styles.active : ''}`}>
            <span className={styles.label}>{t(link.key)}</span>
            {link.badge && <CounterBadge counter={link.badge} className={styles.menuBadge} />}
          </NavLink>
        </li>
      ))}
      <li>
        <button
          type="button"
          className={styles.link}
          onClick={() => {
            setOpenSidebar(false);
            openLogout();
          }}
        >
          {t('dashboard.logout')}
        </button>
      </li>
    </ul>
  );

  return (
    <div className={styles.dashboard}>
      <aside className={styles.sidebar} aria-label={t('dashboard.menu-label')}>
        <nav>{links}</nav>
      </aside>

      <div className={styles.content}>
        <span className={styles.toggleWrap}>
          <button
            type="button"
            className={styles.toggle}
            aria-label={unread > 0 ? `${t('dashboard.open-menu')} (${t('badge.unread', { count: unread })})` : t('dashboard.open-menu')}
            aria-expanded={openSidebar}
            aria-controls="dashboard-drawer"
            onClick={() => setOpenSidebar(true)}
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
              <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            <span>{t('dashboard.menu')}</span>
          </button>
          {/* Drawn beside the button, not in it: the button's visible words stay part of its name (axe), and the
            name itself says the count. */}
          {unread > 0 ? (
            <span className={`${badgeStyles.badge} ${badgeStyles.unread} ${styles.toggleBadge}`} aria-hidden="true" data-counter="unread">
              {badgeText(unread)}
            </span>
          ) : null}
        </span>
        <Outlet />
      </div>

      {openSidebar && <div className={styles.scrim} onClick={() => setOpenSidebar(false)} aria-hidden="true" />}
      <nav
        id="dashboard-drawer"
        className={`${styles.drawer} ${openSidebar ? styles.drawerOpen : ''}`}
        aria-label={t('dashboard.drawer-label')}
        aria-hidden={!openSidebar}
        inert={!openSidebar}
      >
        <button type="button" className={styles.close} aria-label={t('dashboard.close-menu')} onClick={() => setOpenSidebar(false)}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        </button>
        {links}
      </nav>
    </div>
  );
}
