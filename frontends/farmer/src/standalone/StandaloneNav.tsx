import { NavLink, Outlet } from '@tuber/shell-contract/router';
import { ADD_PRODUCT_PATH, FARMER_PROFILE_PATH, INBOX_PATH, PRODUCT_LIST_PATH } from '../shared/paths.js';
import styles from './standalone.module.css';

/** Links between the farmer pages when the remote runs alone (inside the shell, the dashboard sidebar does this). */
export function StandaloneNav() {
  const links = [
    { to: ADD_PRODUCT_PATH, label: 'add product' },
    { to: PRODUCT_LIST_PATH, label: 'Product Lists' },
    { to: INBOX_PATH, label: 'Requests' },
    { to: FARMER_PROFILE_PATH, label: 'profile' },
  ];
  return (
    <>
      <nav aria-label="Farmer pages (standalone)" className={styles.nav}>
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} className={({ isActive }) => (isActive ? `${styles.link} ${styles.active}` : styles.link)}>
            {link.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </>
  );
}
